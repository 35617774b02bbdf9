import BinderyRuntime
import BinderyTestSupport
import Foundation
import Synchronization
import Testing

/// A persistence that records commits, can hold them at a gate, and can be made to fail.
final class RecordingPersistence: ViewModelPersistence {
    private let state = Mutex<(commits: [[CommittedVersion]], failing: Bool, lapsed: Set<String>)>(([], false, []))
    let gate: Gate?

    init(holdingAt gate: Gate? = nil) {
        self.gate = gate
    }

    var commits: [[CommittedVersion]] { state.withLock { $0.commits } }

    /// Pretends an earlier process committed `version` of `path` with `state`.
    func seed(_ path: String, version: Int, state seeded: JSONValue) {
        let snapshot = EncodedSnapshot(path: path, version: version, bytes: [])
        state.withLock { $0.commits.append([CommittedVersion(path: path, expected: nil, snapshot: snapshot, state: seeded, runningCommand: nil)]) }
    }

    /// The commits made through the graph, after any seeded ones.
    var madeCommits: [CommittedVersion] { commits.flatMap { $0 }.filter { !$0.snapshot.bytes.isEmpty } }
    func fail(_ failing: Bool) { state.withLock { $0.failing = failing } }
    /// Pretends the lease on the command running at `path` lapsed (its node stopped renewing it).
    func lapse(_ path: String) { state.withLock { _ = $0.lapsed.insert(path) } }

    func commit(_ versions: [CommittedVersion]) async throws(ViewModelError) {
        do { try await gate?.wait() } catch { throw .storeUnavailable }
        try state.withLock { state throws(ViewModelError) in
            // What a store that is down makes of a commit (a full disk, say).
            guard !state.failing else { throw .storeUnavailable }
            // Checked against the stored version, or the batch's earlier write of the same path.
            var written: [String: Int] = [:]
            for version in versions {
                let stored =
                    written[version.path]
                    ?? state.commits.flatMap { $0 }.last { $0.path == version.path }?.snapshot.version
                guard version.expected == stored else { throw .versionConflict }
                written[version.path] = version.snapshot.version
            }
            state.commits.append(versions)
        }
    }

    func latest(of path: String) async throws -> RestoredViewModel? {
        let lapsed = state.withLock { $0.lapsed.contains(path) }
        return commits.flatMap { $0 }.last { $0.path == path }.map {
            RestoredViewModel(
                version: $0.snapshot.version, state: $0.state,
                interruptedCommand: lapsed ? $0.runningCommand : nil, runningCommand: lapsed ? nil : $0.runningCommand
            )
        }
    }

    func versions(of path: String, after version: Int) async throws -> [EncodedSnapshot]? {
        let logged = commits.flatMap { $0 }.filter { $0.path == path }.map(\.snapshot)
        guard let first = logged.first, first.version <= version + 1 else { return nil }
        return logged.filter { $0.version > version }
    }
}

@Suite("View-model graph with persistence: commit before publish, roll back on failure, restore")
struct GraphPersistenceTests {
    @Test func aWriteIsAnsweredAndPushedOnlyAfterItsCommit() async throws {
        let gate = Gate()
        let persistence = RecordingPersistence(holdingAt: gate)
        let graph = ViewModelGraph(screens: counterScreens, persistence: persistence)
        let pushed = Recorder<EncodedSnapshot>()
        let watching = Task { try await graph.watch("counter", after: nil, send: { pushed.append($0) }, end: {}) }
        let writing = Task { try await graph.write("counter", patch: ["name": "ada"]) }
        for _ in 0..<50 { await Task.yield() }
        #expect(pushed.versions.isEmpty, "nothing is seen before it is committed")
        #expect(graph.board.snapshot(at: "counter") == nil)
        gate.open()
        _ = try await watching.value
        let written = try await writing.value
        #expect(written.output("greeting") == "hello ada")
        // The watcher's arrival (`active`) may be rendered before the write or after it, as the
        // two tasks happen to run: the write's version is pushed either way, and nothing older
        // than what was committed last is shown.
        #expect(pushed.versions.contains(written.version))
        let newest = try #require(persistence.commits.flatMap { $0 }.last?.snapshot.version)
        #expect(pushed.versions.last == newest)
        #expect(graph.board.snapshot(at: "counter")?.version == newest)
        let committed = persistence.commits.flatMap { $0 }
        #expect(committed.map(\.snapshot.version) == Array(1...newest), "every version, in order")
        #expect(committed.last?.state == ["name": "ada", "limit": 3])
        #expect(committed.first?.expected == nil)
        #expect(zip(committed.dropFirst(), committed).allSatisfy { $0.expected == $1.snapshot.version })
    }

    @Test func plainWritesWhileACommitIsHeldShareTheNextCommitAndEachGetsItsOwnVersion() async throws {
        let gate = Gate()
        let persistence = RecordingPersistence(holdingAt: gate)
        let graph = ViewModelGraph(screens: counterScreens, persistence: persistence)
        let first = Task { try await graph.write("counter", patch: ["name": "a"]) }
        for _ in 0..<50 { await Task.yield() }
        let names = ["b", "c", "d"]
        let later = names.map { name in Task { try await graph.write("counter", patch: ["name": .string(name)]) } }
        for _ in 0..<50 { await Task.yield() }
        #expect(persistence.commits.isEmpty, "the first commit is still held")
        gate.open()
        var answers = [try await first.value]
        for task in later { answers.append(try await task.value) }
        for (answer, name) in zip(answers, ["a"] + names) {
            #expect(answer.output("greeting") == .string("hello \(name)"), "each write is answered with its own version")
        }
        #expect(Set(answers.map(\.version)).count == 4)
        let laterVersions = Set(answers.dropFirst().map(\.version))
        #expect(
            persistence.commits.contains { Set($0.map(\.snapshot.version)).isSuperset(of: laterVersions) },
            "the writes made while the first commit was held are committed together"
        )
        let committed = persistence.commits.flatMap { $0 }
        #expect(committed.map(\.snapshot.version) == Array(1...answers.map(\.version).max()!), "every version, in order")
    }

    @Test func aFailedCommitIsRefusedAndChangesNothingInMemory() async throws {
        let persistence = RecordingPersistence()
        let graph = ViewModelGraph(screens: counterScreens, persistence: persistence)
        let before = try await graph.snapshot("counter")
        persistence.fail(true)
        await #expect(throws: ViewModelError.storeUnavailable) {
            try await graph.write("counter", patch: ["name": "lost"])
        }
        #expect(try await graph.inspect("counter") { ($0 as? CounterViewModel)?.name } == "start")
        #expect(try await graph.snapshot("counter") == before, "reads keep working and show the committed state")
        persistence.fail(false)
        let after = try await graph.write("counter", patch: ["name": "kept"])
        #expect(after.version == before.version + 1, "versions go on from the committed one")
        #expect(after.output("greeting") == "hello kept")
    }

    @Test func aRestoredViewModelContinuesItsVersionAndStateAndShowsAnInterruptedCommand() async throws {
        let persistence = RecordingPersistence()
        persistence.seed("counter", version: 7, state: ["name": "back", "limit": 5])
        let restored = ["counter": RestoredViewModel(version: 7, state: ["name": "back", "limit": 5], interruptedCommand: "slowIncrement")]
        let graph = ViewModelGraph(screens: counterScreens, persistence: persistence, restored: restored)
        let snapshot = try await graph.snapshot("counter")
        #expect(snapshot.version == 8, "version 7 again, then the interruption as a new version")
        #expect(snapshot.output("greeting") == "hello back")
        #expect(snapshot.command("slowIncrement", "executing") == false)
        #expect(snapshot.command("slowIncrement", "error")?.objectValue?["message"]?.stringValue?.hasPrefix("Interrupted") == true)
        let committed = try #require(persistence.madeCommits.first)
        #expect(committed.expected == 7)
        #expect(committed.snapshot.version == 8)
        let written = try await graph.write("counter", patch: ["limit": 6], ifVersion: [8])
        #expect(written.version == 9)
    }

    @Test func aWatcherResumingFromAnOlderVersionGetsEveryVersionItMissed() async throws {
        let persistence = RecordingPersistence()
        let graph = ViewModelGraph(screens: counterScreens, persistence: persistence)
        let first = try await graph.snapshot("counter")
        for name in ["a", "b", "c"] { _ = try await graph.write("counter", patch: ["name": .string(name)]) }
        let resumed = Recorder<EncodedSnapshot>()
        _ = try await graph.watch("counter", after: first.version, send: { resumed.append($0) }, end: {})
        let current = try await graph.snapshot("counter")
        #expect(resumed.versions == Array(first.version + 1...current.version))
    }

    @Test func twoNodesOnOneStoreNeverBothWinTheSameVersion() async throws {
        let persistence = RecordingPersistence()
        let nodeA = ViewModelGraph(screens: counterScreens, persistence: persistence)
        let nodeB = ViewModelGraph(screens: counterScreens, persistence: persistence)
        let first = try await nodeA.snapshot("counter")
        _ = try await nodeA.write("counter", patch: ["name": "a"])
        // B has no copy yet: its first render conflicts with A's versions and reloads them.
        let plain = try await nodeB.write("counter", patch: ["limit": 5])
        #expect(plain.output("greeting") == "hello a", "B reloaded A's write before applying its own")
        #expect(plain.version == first.version + 2)
        let pushed = Recorder<EncodedSnapshot>()
        _ = try await nodeA.watch("counter", after: first.version + 1, send: { pushed.append($0) }, end: {})
        await nodeA.refresh("counter", toVersion: plain.version)
        #expect(pushed.versions.last == plain.version, "A shows B's version once notified")
        // `limit` changed since the version named: a write of it is refused, naming it; a write of
        // `name`, which did not change, is merged.
        await #expect(throws: ViewModelError.fieldsChanged(current: plain.version, fields: ["limit"])) {
            try await nodeA.write("counter", patch: ["name": "stale", "limit": 1], ifVersion: [first.version + 1])
        }
        let merged = try await nodeA.write("counter", patch: ["name": "merged"], ifVersion: [first.version + 1])
        #expect(merged.version == plain.version + 1)
        #expect(merged.output("greeting") == "hello merged")
        let versions = persistence.commits.flatMap { $0 }.map(\.snapshot.version)
        #expect(versions == Array(1...merged.version), "one writer per version")
    }

    @Test func aNewerVersionThatLooksTheSameHereStillMovesThisNodeToIt() async throws {
        let persistence = RecordingPersistence()
        let nodeA = ViewModelGraph(screens: counterScreens, persistence: persistence)
        let nodeB = ViewModelGraph(screens: counterScreens, persistence: persistence)
        let first = try await nodeA.snapshot("counter")
        // A failed command on B: a new version with the same persisted state.
        _ = try await nodeB.execute("counter", command: "fail", argument: nil, wait: .seconds(30))
        let onB = try await nodeB.snapshot("counter")
        #expect(onB.version > first.version)
        await nodeA.refresh("counter", toVersion: onB.version)
        #expect(try await nodeA.snapshot("counter").version == onB.version)
        let written = try await nodeA.write("counter", patch: ["name": "after"])
        #expect(written.version == onB.version + 1)
    }

    @Test func anIfMatchNewerThanThisNodesCopyIsCheckedAgainstTheStore() async throws {
        let persistence = RecordingPersistence()
        let nodeA = ViewModelGraph(screens: counterScreens, persistence: persistence)
        let nodeB = ViewModelGraph(screens: counterScreens, persistence: persistence)
        _ = try await nodeA.snapshot("counter")
        let onB = try await nodeB.snapshot("counter")
        let written = try await nodeA.write("counter", patch: ["name": "a"])
        #expect(written.version > onB.version, "B has not heard of it")
        let followUp = try await nodeB.write("counter", patch: ["limit": 4], ifVersion: [written.version])
        #expect(followUp.version == written.version + 1, "B reloaded A's version, then the If-Match held")
        #expect(followUp.output("greeting") == "hello a")
    }
}

/// A persistence that stores a commit at once but answers it only when `answers` opens: what a
/// node sees when another node's notification of its own commit arrives before the commit returns.
final class LateAnswerPersistence: ViewModelPersistence {
    let stored = RecordingPersistence()
    let answers = Gate()
    private let late = Mutex(false)

    /// From now on, commits are answered only once `answers` opens.
    func answerLate() { late.withLock { $0 = true } }

    func commit(_ versions: [CommittedVersion]) async throws(ViewModelError) {
        try await stored.commit(versions)
        if late.withLock({ $0 }) { try? await answers.wait() }
    }

    func latest(of path: String) async throws -> RestoredViewModel? { try await stored.latest(of: path) }

    func versions(of path: String, after version: Int) async throws -> [EncodedSnapshot]? {
        try await stored.versions(of: path, after: version)
    }
}

@Suite("View-model graph: the notice of its own commit never costs a later write")
struct OwnCommitNoticeTests {
    // Found by the multi-node failover test (about one run in eight): a write acknowledged at the
    // version its If-Match named, and never committed. The notice of this node's own commit
    // reloaded the view model while its next version was queued, putting its version back; a
    // later render then got the number the store already held and was published as if stored.
    @Test func aNoticeOfItsOwnCommitWhileTheNextVersionIsQueuedChangesNothing() async throws {
        let persistence = LateAnswerPersistence()
        let graph = ViewModelGraph(screens: counterScreens, persistence: persistence)
        let first = try await graph.snapshot("counter")
        persistence.answerLate()
        let one = Task { try await graph.write("counter", patch: ["name": "one"]) }
        for _ in 0..<200 where !persistence.stored.madeCommits.contains(where: { $0.state.objectValue?["name"] == "one" }) {
            await Task.yield()
        }
        let two = Task { try await graph.write("counter", patch: ["name": "two"]) }
        for _ in 0..<100 { await Task.yield() }
        // The store holds "one" (its answer is late); the notice of it arrives now.
        let noticed = try #require(persistence.stored.madeCommits.last { $0.state.objectValue?["name"] == "one" })
        await graph.refresh("counter", toVersion: noticed.snapshot.version)
        persistence.answers.open()
        _ = try await one.value
        let second = try await two.value
        let third = try await graph.write("counter", patch: ["name": "three"])
        #expect(third.version > second.version && second.version > first.version)
        #expect(third.output("greeting") == "hello three")
        let latest = try #require(try await persistence.latest(of: "counter"))
        #expect(latest.version == third.version, "the acknowledged write is the stored one")
        #expect(latest.state.objectValue?["name"] == "three")
        let versions = persistence.stored.madeCommits.map(\.snapshot.version)
        #expect(versions == versions.sorted() && Set(versions).count == versions.count, "\(versions)")
    }
}

@Suite("Conditional writes merge what did not change")
struct FieldMergeTests {
    @Test func aStaleIfMatchOnUntouchedInputsIsAppliedAndOnChangedOnesRefusedNamingThem() async throws {
        let graph = ViewModelGraph(screens: counterScreens, persistence: RecordingPersistence())
        let seen = try await graph.snapshot("counter")
        _ = try await graph.write("counter", patch: ["name": "theirs"])
        let merged = try await graph.write("counter", patch: ["limit": 7], ifVersion: [seen.version])
        #expect(merged.output("greeting") == "hello theirs", "the other write stays")
        // Both changed since: `name` by the other write, `limit` by the merged one.
        await #expect(throws: ViewModelError.fieldsChanged(current: merged.version, fields: ["limit", "name"])) {
            try await graph.write("counter", patch: ["name": "mine", "limit": 8], ifVersion: [seen.version])
        }
        #expect(try await graph.snapshot("counter") == merged, "a refused write changes nothing")
    }

    @Test func aVersionOlderThanTheHistoryIsAPlainMismatch() async throws {
        let graph = ViewModelGraph(screens: counterScreens)
        let seen = try await graph.snapshot("counter")
        let now = try await graph.write("counter", patch: ["name": "theirs"])
        await #expect(throws: ViewModelError.versionMismatch(current: now.version)) {
            try await graph.write("counter", patch: ["limit": 7], ifVersion: [seen.version])
        }
    }
}
