import BinderyRuntime
import BinderyTestSupport
import Foundation
import Synchronization
import Testing

/// A persistence that records commits, can hold them at a gate, and can be made to fail.
final class RecordingPersistence: ViewModelPersistence {
    private let state = Mutex<(commits: [[CommittedVersion]], failing: Bool)>(([], false))
    let gate: Gate?

    init(holdingAt gate: Gate? = nil) {
        self.gate = gate
    }

    var commits: [[CommittedVersion]] { state.withLock { $0.commits } }
    func fail(_ failing: Bool) { state.withLock { $0.failing = failing } }

    func commit(_ versions: [CommittedVersion]) async throws {
        try await gate?.wait()
        try state.withLock { state in
            guard !state.failing else { throw CocoaError(.fileWriteOutOfSpace) }
            state.commits.append(versions)
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
        let pushed = Recorder()
        let watching = Task { try await graph.watch("counter", after: nil, send: { pushed.append($0) }, end: {}) }
        let writing = Task { try await graph.write("counter", patch: ["name": "ada"]) }
        for _ in 0..<50 { await Task.yield() }
        #expect(pushed.versions.isEmpty, "nothing is seen before it is committed")
        #expect(graph.board.snapshot(at: "counter") == nil)
        gate.open()
        _ = try await watching.value
        let written = try await writing.value
        #expect(written.output("greeting") == "hello ada")
        #expect(pushed.versions.last == written.version)
        #expect(graph.board.snapshot(at: "counter") == written)
        let committed = persistence.commits.flatMap { $0 }
        #expect(committed.map(\.snapshot.version) == Array(1...written.version), "every version, in order")
        #expect(committed.last?.state == ["name": "ada", "limit": 3])
        #expect(committed.first?.expected == nil)
        #expect(zip(committed.dropFirst(), committed).allSatisfy { $0.expected == $1.snapshot.version })
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
        let restored = ["counter": RestoredViewModel(version: 7, state: ["name": "back", "limit": 5], interruptedCommand: "slowIncrement")]
        let graph = ViewModelGraph(screens: counterScreens, persistence: persistence, restored: restored)
        let snapshot = try await graph.snapshot("counter")
        #expect(snapshot.version == 8, "version 7 again, then the interruption as a new version")
        #expect(snapshot.output("greeting") == "hello back")
        #expect(snapshot.command("slowIncrement", "executing") == false)
        #expect(snapshot.command("slowIncrement", "error")?.objectValue?["message"]?.stringValue?.hasPrefix("Interrupted") == true)
        let committed = try #require(persistence.commits.flatMap { $0 }.first)
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
        let resumed = Recorder()
        _ = try await graph.watch("counter", after: first.version, send: { resumed.append($0) }, end: {})
        let current = try await graph.snapshot("counter")
        #expect(resumed.versions == Array(first.version + 1...current.version))
    }
}
