import BinderyRuntime
import BinderyTestSupport
import Testing

/// The commit pipeline (``CommitPipeline``) through its graph: how batches chain, what a refused
/// batch does to the ones behind it, and that a finished commit leaves nothing running.
@Suite("Commit pipeline: batches chain, a refusal rolls back what was built on it")
struct CommitPipelineTests {
    @Test func aBatchBuiltOnARefusedOneIsRefusedWithTheSameErrorAndBothRollBack() async throws {
        let persistence = RefusingPersistence()
        let graph = ViewModelGraph(screens: counterScreens, persistence: persistence)
        let before = try await graph.snapshot("counter")
        let gate = Gate()
        persistence.refuseNext(when: gate)
        let first = Task { try await graph.write("counter", patch: ["name": "a"]) }
        for _ in 0..<50 { await Task.yield() }
        // The first batch is at the store: this write renders on top of it, in the next batch.
        let second = Task { try await graph.write("counter", patch: ["name": "b"]) }
        for _ in 0..<50 { await Task.yield() }
        gate.open()
        await #expect(throws: ViewModelError.storeUnavailable) { try await first.value }
        await #expect(throws: ViewModelError.storeUnavailable, "built on a rolled-back base") { try await second.value }
        #expect(persistence.recorded.madeCommits.map(\.snapshot.version) == [before.version], "the second never reached the store")
        #expect(try await graph.inspect("counter") { ($0 as? CounterViewModel)?.name } == "start")
        #expect(try await graph.snapshot("counter") == before)
        let after = try await graph.write("counter", patch: ["name": "c"])
        #expect(after.version == before.version + 1, "versions go on from the committed one")
    }

    @Test func aFinishedCommitLeavesNothingRunningAndTheGraphQuiet() async throws {
        let persistence = RecordingPersistence()
        let graph = ViewModelGraph(screens: counterScreens, persistence: persistence)
        _ = try await graph.write("counter", patch: ["name": "a"])
        _ = try await graph.write("counter", patch: ["name": "b"])
        #expect(await graph.isQuiet, "no batch open or in flight once the writes are answered")
        #expect(persistence.madeCommits.map(\.state["name"]) == [.string("start"), .string("a"), .string("b")])
    }

    @Test func aWriteThatLosesARaceReloadsTheOtherNodesVersionAndLandsOnTopOfIt() async throws {
        let persistence = RecordingPersistence()
        let graph = ViewModelGraph(screens: counterScreens, persistence: persistence)
        let before = try await graph.snapshot("counter")
        // Another node's version of the same view model lands before every commit of this one's.
        persistence.seed("counter", version: before.version + 1, state: ["name": "elsewhere", "limit": 3])
        let written = try await graph.write("counter", patch: ["name": "here"])
        #expect(written.version == before.version + 2, "reloaded the other node's version, then written on top")
        #expect(written.output("greeting") == "hello here")
    }
}
