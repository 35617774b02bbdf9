@testable import BinderyRuntime
import Testing

/// A record with two collaborative texts.
private struct Draft: SharedRecord {
    var id: String
    var version = 1
    var title: String
    var body = ""
    var pages = 1

    var collaborativeTexts: [String: String] { ["title": title, "body": body] }

    mutating func setCollaborativeText(_ key: String, to value: String) -> Bool {
        switch key {
        case "title": title = value
        case "body": body = value
        default: return false
        }
        return true
    }
}

/// Collaborative texts of a shared collection: edits transformed against what was applied since
/// their base, repeated ids, the log's bounds, races between nodes, deletion and restore.
@Suite("Shared collections: collaborative texts", .timeLimit(.minutes(1)))
struct CollaborativeTextTests {
    private func open(_ storage: MemoryRecordStorage = MemoryRecordStorage()) async throws -> SharedCollection<Draft> {
        let drafts = SharedCollection<Draft>("drafts", firstStart: [Draft(id: "d", title: "Hello")])
        try await drafts.open(storage)
        return drafts
    }

    private func insert(_ text: String, at offset: Int, base: Int, id: String) -> TextEditRequest {
        TextEditRequest(id: id, base: base, operation: TextOperation([.insert(text, at: offset)]))
    }

    @Test func twoEditsOnOneRevisionBothApplyWhereTheirAuthorsMeant() async throws {
        let drafts = try await open()
        let title = drafts.collaborativeText(id: "d", key: "title")
        let first = try await title.apply(insert("X", at: 0, base: 1, id: "a-1")) { _ in nil }.get()
        #expect(first == TextEdits(from: 1, revision: 2, edits: [TextEdit(id: "a-1", revision: 2, operation: TextOperation([.insert("X", at: 0)]))]))
        let second = try await title.apply(insert("Y", at: 5, base: 1, id: "b-1")) { _ in nil }.get()
        // Made on "Hello": its offset moves past the X applied before it.
        #expect(second.edits.map(\.operation) == [TextOperation([.insert("X", at: 0)]), TextOperation([.insert("Y", at: 6)])])
        #expect(title.read()! == ("XHelloY", 3))
        #expect(drafts.record(id: "d")?.title == "XHelloY")
    }

    @Test func aRepeatedIdAnswersTheFirstAnswerAndAppliesNothing() async throws {
        let drafts = try await open()
        let title = drafts.collaborativeText(id: "d", key: "title")
        let request = insert("!", at: 5, base: 1, id: "a-1")
        let first = try await title.apply(request) { _ in nil }.get()
        _ = try await title.apply(insert("?", at: 0, base: 2, id: "b-1")) { _ in nil }.get()
        let again = try await title.apply(request) { _ in nil }.get()
        #expect(again == first)
        #expect(title.value == "?Hello!")
    }

    @Test func aWholeValueWriteIsLoggedAsTheDifferenceAndTransformsLaterEdits() async throws {
        let drafts = try await open()
        try await drafts.update(id: "d") { $0.title = "Hello, world" }
        try await drafts.update(id: "d") { $0.pages = 2 }
        let title = drafts.collaborativeText(id: "d", key: "title")
        #expect(
            title.recentEdits(1, 3)
                == TextEdits(
                    from: 1, revision: 3,
                    edits: [
                        TextEdit(id: nil, revision: 2, operation: TextOperation([.insert(", world", at: 5)]))
                    ]))
        // Made on "Hello" before the write: lands after the whole word, before the comma.
        _ = try await title.apply(insert("!", at: 5, base: 1, id: "a-1")) { _ in nil }.get()
        #expect(title.value == "Hello!, world")
    }

    @Test func aBaseOlderThanTheLogIsRefusedAndTheStoreLetsAClientCatchUp() async throws {
        let storage = MemoryRecordStorage(logLimit: 64)
        let drafts = try await open(storage)
        for index in 0..<5 { try await drafts.update(id: "d") { $0.body += "\(index)" } }
        // A restarted node holds no edits in memory: it reads them from the store's log.
        let restarted = try await open(storage)
        let body = restarted.collaborativeText(id: "d", key: "body")
        #expect(await body.catchUp(3)?.edits.map(\.revision) == [4, 5, 6])
        _ = try await body.apply(insert("<", at: 0, base: 1, id: "a-1")) { _ in nil }.get()
        #expect(body.value == "<01234")

        // A store that keeps two versions, and a node that restarted since: nobody has them.
        let short = MemoryRecordStorage(logLimit: 2)
        let before = try await open(short)
        for index in 0..<5 { try await before.update(id: "d") { $0.body += "\(index)" } }
        let forgotten = try await open(short).collaborativeText(id: "d", key: "body")
        let refused = await forgotten.apply(insert("<", at: 0, base: 1, id: "a-1")) { _ in nil }
        #expect(refused == .failure(.tooOld(oldest: 6)))
        #expect(forgotten.value == "01234")
    }

    @Test func aNodeThatLosesTheRaceTransformsAgainAndRetries() async throws {
        let storage = MemoryRecordStorage()
        let nodeA = try await open(storage)
        let nodeB = try await open(storage)
        _ = try await nodeA.collaborativeText(id: "d", key: "title").apply(insert("A", at: 0, base: 1, id: "a-1")) { _ in nil }.get()
        // Node B has not heard of A's edit: its commit is refused, it reloads and transforms again.
        let answer = try await nodeB.collaborativeText(id: "d", key: "title").apply(insert("B", at: 5, base: 1, id: "b-1")) { _ in nil }.get()
        #expect(answer.revision == 3)
        #expect(answer.edits.map(\.id) == ["a-1", "b-1"])
        #expect(nodeB.record(id: "d")?.title == "AHelloB")
        await nodeA.refresh(id: "d", toVersion: 3)
        #expect(nodeA.collaborativeText(id: "d", key: "title").recentEdits(2, 3)?.edits.map(\.id) == ["b-1"])
    }

    @Test func aRefusedOrImpossibleEditChangesNothing() async throws {
        let drafts = try await open()
        let title = drafts.collaborativeText(id: "d", key: "title")
        let refused = await title.apply(insert("!", at: 5, base: 1, id: "a-1")) { $0.count > 5 ? "too long" : nil }
        #expect(refused == .failure(.refused(reason: "too long")))
        let outside = await title.apply(insert("!", at: 9, base: 1, id: "a-2")) { _ in nil }
        #expect(outside == .failure(.invalid(reason: "the ops do not apply to revision 1")))
        let ahead = await title.apply(insert("!", at: 0, base: 7, id: "a-3")) { _ in nil }
        #expect(ahead == .failure(.invalid(reason: "base 7 is ahead of revision 1")))
        let missing = await drafts.collaborativeText(id: "d", key: "pages").apply(insert("!", at: 0, base: 1, id: "a-4")) { _ in nil }
        #expect(missing == .failure(.notFound))
        #expect(drafts.record(id: "d")?.version == 1)
    }

    @Test func aDeletedRecordSaysWhoDeletedItAndCanBeRestoredAfterARestart() async throws {
        let storage = MemoryRecordStorage()
        let drafts = try await open(storage)
        try await drafts.delete(id: "d", by: "Teal Otter")
        #expect(drafts.deletion(of: "d") == SharedDeletion(record: Draft(id: "d", title: "Hello"), by: "Teal Otter", version: 2))
        let restarted = try await open(storage)
        let restored = try await restarted.restore(id: "d")
        #expect(restored == Draft(id: "d", version: 3, title: "Hello"))
        #expect(restarted.deletion(of: "d") == nil)
        await #expect(throws: SharedRecordError.notFound(id: "d")) { try await restarted.restore(id: "d") }
    }
}
