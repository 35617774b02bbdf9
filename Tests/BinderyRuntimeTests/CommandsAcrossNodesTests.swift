import BinderyRuntime
import BinderyTestSupport
import Testing

/// Two graphs on one persistence stand for two nodes on one shared store.
@Suite("Deferred commands across nodes: shown running elsewhere, interrupted when the lease lapses, ends re-applied")
struct CommandsAcrossNodesTests {
    @Test func aCommandRunningOnAnotherNodeShowsAsExecutingAndASerialOneIsRefused() async throws {
        let persistence = RecordingPersistence()
        let nodeA = ViewModelGraph(screens: counterScreens, persistence: persistence)
        let nodeB = ViewModelGraph(screens: counterScreens, persistence: persistence)
        _ = try await nodeA.execute("counter", command: "slowRename", argument: ["name": "fromA"])
        #expect(await nodeA.commandsRunningHere() == ["counter": "slowRename"])
        let onB = try await nodeB.snapshot("counter")
        #expect(onB.command("slowRename", "executing") == true, "B shows A's command as running")
        #expect(await nodeB.commandsRunningHere().isEmpty, "B renews no lease for it")
        await #expect(throws: ViewModelError.commandExecuting(name: "slowRename")) {
            try await nodeB.execute("counter", command: "slowRename", argument: ["name": "fromB"])
        }
        try await gate(of: nodeA).open()
        _ = try await snapshot(of: nodeA) { $0.command("slowRename", "executing") == false }
        let ended = try #require(persistence.madeCommits.last)
        await nodeB.refresh("counter", toVersion: ended.snapshot.version)
        let after = try await nodeB.snapshot("counter")
        #expect(after.command("slowRename", "executing") == false)
        #expect(after.output("greeting") == "hello fromA")
    }

    @Test func aCommandWhoseLeaseLapsedIsShownInterruptedInACommittedVersion() async throws {
        let persistence = RecordingPersistence()
        let nodeA = ViewModelGraph(screens: counterScreens, persistence: persistence)
        let nodeB = ViewModelGraph(screens: counterScreens, persistence: persistence)
        _ = try await nodeA.execute("counter", command: "slowRename", argument: ["name": "fromA"])
        let running = try await nodeB.snapshot("counter")
        await nodeB.expireLapsedCommands()
        #expect(try await nodeB.snapshot("counter").version == running.version, "a live lease changes nothing")
        // Node A dies: nothing renews its lease any more.
        await nodeA.close()
        persistence.lapse("counter")
        await nodeB.expireLapsedCommands()
        let interrupted = try await nodeB.snapshot("counter")
        #expect(interrupted.version == running.version + 1)
        #expect(interrupted.command("slowRename", "executing") == false)
        #expect(interrupted.command("slowRename", "error")?.objectValue?["message"]?.stringValue?.hasPrefix("Interrupted") == true)
        let committed = try #require(persistence.madeCommits.last)
        #expect(committed.snapshot.version == interrupted.version, "committed, so every node shows it")
        #expect(committed.runningCommand == nil)
    }

    @Test func aCommandEndOvertakenByAnotherNodesWriteIsAppliedOnTopOfIt() async throws {
        let persistence = RecordingPersistence()
        let nodeA = ViewModelGraph(screens: counterScreens, persistence: persistence)
        let nodeB = ViewModelGraph(screens: counterScreens, persistence: persistence)
        _ = try await nodeA.execute("counter", command: "slowRename", argument: ["name": "fromA"])
        // While A's command runs, B writes another input; A has not heard of it yet.
        let written = try await nodeB.write("counter", patch: ["limit": 7])
        #expect(written.command("slowRename", "executing") == true, "B's version keeps A's command running")
        #expect(persistence.madeCommits.last?.runningCommand == "slowRename")
        try await gate(of: nodeA).open()
        let final = try await snapshot(of: nodeA) {
            $0.command("slowRename", "executing") == false && $0.version > written.version
        }
        #expect(final.version == written.version + 1, "the end is a new version after B's")
        #expect(final.output("greeting") == "hello fromA", "the command's result is kept")
        #expect(final.input("limit") == 7, "B's write is kept")
        #expect(final.command("slowRename", "executing") == false)
        let committed = try #require(persistence.madeCommits.last)
        #expect(committed.state == ["name": "fromA", "limit": 7])
        #expect(committed.runningCommand == nil)
        #expect(committed.expected == written.version)
    }

    @Test func aCommandOnANodeWithoutACopyRunsOnTheVersionTheOtherNodeCommitted() async throws {
        let persistence = RecordingPersistence()
        let nodeA = ViewModelGraph(screens: counterScreens, persistence: persistence)
        let nodeB = ViewModelGraph(screens: counterScreens, persistence: persistence)
        let first = try await nodeB.snapshot("counter")
        // A's first render conflicts with B's version 1: A reloads it, then runs the command on it.
        let outcome = try await nodeA.execute("counter", command: "slowRename", argument: ["name": "fromA"])
        guard case .running(let running) = outcome else {
            Issue.record("expected the command to be running, got \(outcome)")
            return
        }
        #expect(running.version == first.version + 1)
        #expect(persistence.madeCommits.last?.runningCommand == "slowRename")
        #expect(persistence.madeCommits.map(\.snapshot.version) == [1, 2], "one writer per version")
    }

    @Test func theMergeKeepsWhatEachSideChanged() {
        let merged = JSONValue.merge(
            base: ["a": 1, "b": 1, "gone": 1], local: ["a": 2, "b": 1], remote: ["a": 1, "b": 3, "gone": 1, "new": 4]
        )
        #expect(merged == ["a": 2, "b": 3, "new": 4])
    }

    /// The counter's snapshot once `condition` holds (the command's end runs in its own task).
    private func snapshot(of graph: ViewModelGraph, where condition: (EncodedSnapshot) -> Bool) async throws -> EncodedSnapshot {
        var snapshot = try await graph.snapshot("counter")
        for _ in 0..<200 where !condition(snapshot) {
            await Task.yield()
            snapshot = try await graph.snapshot("counter")
        }
        return snapshot
    }

    private func gate(of graph: ViewModelGraph) async throws -> Gate {
        try #require(try await graph.inspect("counter") { ($0 as? CounterViewModel)?.gate })
    }
}
