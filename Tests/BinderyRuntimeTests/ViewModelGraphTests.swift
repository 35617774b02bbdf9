import BinderyRuntime
import BinderyTestSupport
import Synchronization
import Testing

@Suite("View-model graph: versions, writes, watches")
struct ViewModelGraphTests {
    let graph = ViewModelGraph(screens: counterScreens)

    @Test func firstSnapshotIsVersionOneAndIsCachedOnTheBoard() async throws {
        let first = try await graph.snapshot("counter")
        #expect(first.version == 1)
        #expect(first.output("greeting") == "hello start")
        #expect(graph.board.snapshot(at: "counter") == first)
        let again = try await graph.snapshot("counter")
        #expect(again == first)
    }

    @Test func writeBumpsTheVersionOnlyWhenStateChanges() async throws {
        _ = try await graph.snapshot("counter")
        let written = try await graph.write("counter", patch: ["name": "bindery"])
        #expect(written.version == 2)
        #expect(written.output("greeting") == "hello bindery")
        let same = try await graph.write("counter", patch: ["name": "bindery"])
        #expect(same.version == 2)
    }

    @Test func badPatchesChangeNothing() async throws {
        let before = try await graph.snapshot("counter")
        await #expect(throws: ViewModelError.unknownInput(name: "nope")) {
            try await graph.write("counter", patch: ["name": "x", "nope": 1])
        }
        await #expect(throws: ViewModelError.invalidInput(name: "name", reason: "expected a string, got number")) {
            try await graph.write("counter", patch: ["name": 5])
        }
        await #expect(throws: ViewModelError.invalidInput(name: "limit", reason: "must be at most 10")) {
            try await graph.write("counter", patch: ["name": "y", "limit": 11])
        }
        await #expect(throws: ViewModelError.patchNotAnObject) {
            try await graph.write("counter", patch: ["name"])
        }
        #expect(try await graph.snapshot("counter") == before)
    }

    @Test func ifMatchRefusesAStaleVersion() async throws {
        _ = try await graph.snapshot("counter")
        _ = try await graph.write("counter", patch: ["name": "a"], ifVersion: [1])
        await #expect(throws: ViewModelError.versionMismatch(current: 2)) {
            try await graph.write("counter", patch: ["name": "b"], ifVersion: [1, 3])
        }
        #expect(try await graph.snapshot("counter").output("greeting") == "hello a")
    }

    @Test func immediateCommandAnswersItsResultAndNewState() async throws {
        let outcome = try await graph.execute("counter", command: "increment", argument: nil)
        guard case .completed(let snapshot, let result) = outcome else {
            Issue.record("expected completion, got \(outcome)")
            return
        }
        #expect(result.navigate == "/counter/1")
        #expect(snapshot.output("count") == 1)
    }

    @Test func unknownPathsAndCommandsAreTypedErrors() async throws {
        await #expect(throws: ViewModelError.notFound(path: "nothing")) { try await graph.snapshot("nothing") }
        await #expect(throws: ViewModelError.notFound(path: "counter/child")) { try await graph.snapshot("counter/child") }
        await #expect(throws: ViewModelError.unknownCommand(name: "explode")) {
            try await graph.execute("counter", command: "explode", argument: nil)
        }
    }

    @Test func deferredCommandRunsInTheBackgroundAndRefusesASecondExecution() async throws {
        let events = Recorder<EncodedSnapshot>()
        _ = try await graph.watch("counter", after: nil, send: { events.append($0) }, end: {})
        let outcome = try await graph.execute("counter", command: "slowIncrement", argument: nil)
        guard case .running(let running) = outcome else {
            Issue.record("expected running, got \(outcome)")
            return
        }
        #expect(running.command("slowIncrement", "executing") == true)
        await #expect(throws: ViewModelError.commandExecuting(name: "slowIncrement")) {
            try await graph.execute("counter", command: "slowIncrement", argument: nil)
        }
        let waiting = Task { try await graph.snapshot("counter", after: running.version, waitingUpTo: .seconds(60)) }
        try await gate().open()
        let done = try #require(try await waiting.value)
        #expect(done.output("count") == 1)
        #expect(done.command("slowIncrement", "executing") == false)
        #expect(events.versions == events.versions.sorted())
        #expect(Set(events.versions).count == events.versions.count)
    }

    @Test func watchingActivatesAndTheLastUnwatchDeactivatesAndCancels() async throws {
        let events = Recorder<EncodedSnapshot>()
        let first = try await graph.watch("counter", after: nil, send: { events.append($0) }, end: {})
        let second = try await graph.watch("counter", after: nil, send: { _ in }, end: {})
        #expect(try await graph.snapshot("counter").isActive)
        await graph.unwatch("counter", id: first)
        #expect(try await graph.snapshot("counter").isActive)
        await graph.unwatch("counter", id: second)
        let inactive = try await graph.snapshot("counter")
        #expect(!inactive.isActive)
        #expect(events.snapshots.first?.isActive == true)
        // The activation task was cancelled; wait for it to observe that without sleeping.
        var cancelled = false
        for _ in 0..<10_000 where !cancelled {
            await Task.yield()
            cancelled = try await graph.inspect("counter") { ($0 as? CounterViewModel)?.activeWorkCancelled ?? false }
        }
        #expect(cancelled)
        #expect(try await graph.inspect("counter") { ($0 as? CounterViewModel)?.activations } == 1)
    }

    @Test func resumingAtTheCurrentVersionSendsNothingAndAnOlderOneSendsTheCurrent() async throws {
        _ = try await graph.watch("counter", after: nil, send: { _ in }, end: {})
        let current = try await graph.snapshot("counter")
        let upToDate = Recorder<EncodedSnapshot>()
        _ = try await graph.watch("counter", after: current.version, send: { upToDate.append($0) }, end: {})
        #expect(upToDate.versions.isEmpty)
        let behind = Recorder<EncodedSnapshot>()
        _ = try await graph.watch("counter", after: current.version - 1, send: { behind.append($0) }, end: {})
        #expect(behind.versions == [current.version])
    }

    @Test func longPollTimesOutWithNilOnAnInjectedClock() async throws {
        let current = try await graph.snapshot("counter")
        let none = try await graph.snapshot("counter", after: current.version, waitingUpTo: .zero)
        #expect(none == nil)
    }

    @Test func closeEndsWatchesAndRefusesFurtherUse() async throws {
        let ended = Recorder<EncodedSnapshot>()
        _ = try await graph.watch("counter", after: nil, send: { _ in }, end: { ended.append(EncodedSnapshot(path: "", version: 0, bytes: [])) })
        await graph.close()
        #expect(ended.versions == [0])
        await #expect(throws: ViewModelError.sessionClosed) { try await graph.snapshot("counter") }
    }

    @Test func commandOnlyChangesShowAndTheViewModelIsStillObservedAfterThem() async throws {
        let first = try await graph.snapshot("counter")
        for round in 1...3 {
            _ = try await graph.execute("counter", command: "fail", argument: nil)
            let failed = try await snapshot { $0.command("fail", "executing") == false && $0.command("fail", "error") != .null }
            #expect(failed.command("fail", "error") != .null, "round \(round): the command's own change is shown")
        }
        // A change the graph does not make itself: only Observation can report it.
        _ = try await graph.inspect("counter") { ($0 as? CounterViewModel)?.name = "observed" }
        let renamed = try await snapshot { $0.output("greeting") == "hello observed" }
        #expect(renamed.output("greeting") == "hello observed")
        #expect(renamed.version > first.version)
    }

    private func snapshot(where condition: (EncodedSnapshot) -> Bool) async throws -> EncodedSnapshot {
        var snapshot = try await graph.snapshot("counter")
        for _ in 0..<200 where !condition(snapshot) {
            await Task.yield()
            snapshot = try await graph.snapshot("counter")
        }
        return snapshot
    }

    private func gate() async throws -> Gate {
        try #require(try await graph.inspect("counter") { ($0 as? CounterViewModel)?.gate })
    }
}

extension Recorder where Value == EncodedSnapshot {
    /// The snapshots sent to a watcher so far.
    var snapshots: [EncodedSnapshot] { values }
    /// Their versions.
    var versions: [Int] { values.map(\.version) }
}
