import BinderyRuntime
import BinderyTestSupport
import Foundation
import Testing

/// Which versions claim a keyed request's `Idempotency-Key`: only those that hold what the request
/// asked for. A version that claims the key without it turns the request's lost answer into a
/// replayed success (the view model's current snapshot) for work that never happened.
@Suite("Idempotency claims: only a request's own effect claims its key", .timeLimit(.minutes(1)))
struct RequestClaimTests {
    /// The key of one `POST …/commands/…` request.
    static let claim = RequestClaim(
        session: Data([1]), key: "add-once", fingerprint: Data([2]), attempt: Data([3]), at: Date(timeIntervalSince1970: 0),
        expiredBefore: .distantPast, isCommand: true
    )

    /// The chaos run's lost write: another node changed the recipe while this node's command was
    /// on its way, so its commit was refused and the command failed (here a conditional change,
    /// refused as stale: a plain one is applied again on the newer version). The versions that show
    /// the other node's change (in every session that shows the note) and the failed command's end
    /// are not the request's doing: none may claim its key.
    @Test func aCommandThatLostItsRaceWithAnotherNodeClaimsNoKeyInAnySession() async throws {
        let storage = MemoryRecordStorage()
        let notes = SharedCollection<Note>("notes", firstStart: firstNotes)
        try await notes.open(storage)
        let (writerStore, watcherStore) = (RecordingPersistence(), RecordingPersistence())
        let writer = ViewModelGraph(screens: noteScreens(notes), persistence: writerStore)
        let watcher = ViewModelGraph(screens: noteScreens(notes), persistence: watcherStore)
        _ = try await writer.snapshot("note")
        _ = try await watcher.snapshot("note")
        // Another node commits version 2 of the note; this node has not heard of it yet.
        try await storage.write(stored(Note(id: "a", version: 2, title: "Elsewhere")), replacing: 1)
        let outcome = try await RequestClaim.$current.withValue(Self.claim) {
            try await writer.execute("note", command: "retitle", argument: ["title": "Mine"], wait: .seconds(600))
        }
        guard case .failed(let end, _) = outcome else {
            Issue.record("the retitle lost its race and failed: \(outcome)")
            return
        }
        #expect(end.output("title") == "Elsewhere")
        // The watcher's session renders the reloaded note on its own (nothing here reads it).
        for _ in 0..<1000 where watcherStore.madeCommits.count < 2 { await Task.yield() }
        #expect(watcherStore.madeCommits.last?.state != nil, "the watcher committed the other node's title")
        #expect(Self.claimedKeys(writerStore.madeCommits).isEmpty, "the failed command's end claimed the key")
        #expect(Self.claimedKeys(watcherStore.madeCommits).isEmpty, "another session's version claimed the key")
        #expect(notes.record(id: "a")?.title == "Elsewhere")
    }

    /// The chaos run's shutdown: the command's start could not be saved, so the request cancelled
    /// its work, which went on until its commit was refused; meanwhile something else rendered the
    /// view model (its rolled-back state, the command still running). The cancelled end, with no
    /// error and nothing done, may not claim the key.
    @Test func aCommandCancelledBecauseItsStartWasNotSavedClaimsNoKey() async throws {
        let notes = SharedCollection<Note>.inMemory("notes", firstNotes)
        let store = RefusingPersistence()
        let graph = ViewModelGraph(screens: noteScreens(notes), persistence: store)
        _ = try await graph.snapshot("note")
        let gates = try await graph.inspect("note") { ($0 as? NoteTitlerViewModel).map { ($0.started, $0.hold) } }
        let (started, hold) = try #require(gates)
        let refusal = Gate()
        store.refuseNext(when: refusal)
        let request = Task {
            try await RequestClaim.$current.withValue(Self.claim) {
                try await graph.execute("note", command: "stubborn", argument: nil, wait: .seconds(600))
            }
        }
        try await started.wait()
        refusal.open()
        // Once the refused start is rolled back, a read renders it again: a version of its own.
        _ = try await graph.snapshot("note")
        let between = try await graph.snapshot("note")
        #expect(between.command("stubborn", "executing") == true)
        hold.open()
        await #expect(throws: ViewModelError.storeUnavailable) { _ = try await request.value }
        for _ in 0..<1000 where store.recorded.madeCommits.last?.runningCommand != nil { await Task.yield() }
        let ended = try #require(store.recorded.madeCommits.last)
        #expect(ended.runningCommand == nil, "the cancelled end is committed")
        #expect(Self.claimedKeys(store.recorded.madeCommits).isEmpty, "the cancelled end claimed the key")
    }

    /// What a command did claims its key with the version that shows its end, even when nobody
    /// waits for it (answered 202) and a flush of nobody's request renders that end.
    @Test func aCommandThatSucceededClaimsItsKeyWithItsEnd() async throws {
        let notes = SharedCollection<Note>.inMemory("notes", firstNotes)
        let store = RecordingPersistence()
        let graph = ViewModelGraph(screens: noteScreens(notes), persistence: store)
        let outcome = try await RequestClaim.$current.withValue(Self.claim) {
            try await graph.execute("note", command: "retitle", argument: ["title": "Mine"])
        }
        guard case .running = outcome else {
            Issue.record("answered before the work ended: \(outcome)")
            return
        }
        for _ in 0..<1000 where store.madeCommits.last?.runningCommand != nil { await Task.yield() }
        let end = try #require(store.madeCommits.last)
        #expect(end.runningCommand == nil)
        #expect(Self.claimedKeys([end]) == ["add-once"])
        #expect(Self.claimedKeys(store.madeCommits) == ["add-once"], "its start claims nothing")
        #expect(notes.record(id: "a")?.title == "Mine")
    }

    /// The keys a store records with `versions`, as `StorePersistence` hands them over: a version
    /// that shows a command still running claims no command's key.
    static func claimedKeys(_ versions: [CommittedVersion]) -> [String] {
        versions.compactMap { version in
            guard let claim = version.claim, !(claim.isCommand && version.runningCommand != nil) else { return nil }
            return claim.key
        }
    }
}
