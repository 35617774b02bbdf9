import Foundation
import Testing

@testable import BinderyStore

/// The PostgreSQL writer sends a batch's view-model operations in one statement: each refusal
/// stays confined to its own operation (all of its writes undone, the others committed), mixed
/// with operations on the savepoint path, in one transaction.
@Suite("PostgreSQL: a batch of view-model writes in one statement")
struct PostgresBatchedWriteTests {
    @Test func eachRefusalFailsOnlyItsOwnOperation() async throws {
        let store = try await makePostgresStore()
        for byte: UInt8 in 1...3 { _ = try await store.createSession(tokenHash(byte), at: t0) }
        try await store.commit([write(key(2), expected: nil, version: 1)])
        let claim = IdempotencyClaim(
            session: tokenHash(3), key: "k", fingerprint: bytes("f"), attempt: bytes("a1"), at: t0, expiredBefore: at(-60)
        )
        let before = store.statistics
        store.committer.hold()

        func claimed(_ attempt: String, version: Int) -> ViewModelWrite {
            var claimed = write(key(3, "claimed\(version)"), expected: nil, version: version)
            claimed.claim = claim
            claimed.claim?.attempt = bytes(attempt)
            return claimed
        }
        let operations: [[ViewModelWrite]] = [
            [write(key(1), expected: nil, version: 1)],
            // The first write applies, the second conflicts: both are undone.
            [write(key(2, "list"), expected: nil, version: 1), write(key(2), expected: 5, version: 6)],
            [write(key(9), expected: nil, version: 1)],
            [write(key(2), expected: 1, version: 1)],
            [claimed("a1", version: 1)],
            [claimed("a2", version: 2)],
            [write(key(3), expected: nil, version: 1)],
        ]
        var tasks: [Task<Void, any Error>] = []
        for (index, writes) in operations.enumerated() {
            tasks.append(Task { try await store.commit(writes) })
            await store.committer.waitUntilQueued(index + 1)
            if index == 2 {
                // An operation of the savepoint path between view-model ones.
                tasks.append(Task { _ = try await store.createSession(tokenHash(4), at: t0) })
                await store.committer.waitUntilQueued(index + 2)
            }
        }
        store.committer.release()
        var outcomes: [String] = []
        for task in tasks {
            do {
                try await task.value
                outcomes.append("ok")
            } catch let error as StoreError {
                outcomes.append("\(error)")
            }
        }
        #expect(
            outcomes == [
                "ok", "\(StoreError.conflict(key(2), expected: 5, stored: 1))", "\(StoreError.sessionNotFound(tokenHash(9)))", "ok",
                "\(StoreError.versionNotIncreasing(key(2), expected: 1, version: 1))", "ok", "\(StoreError.keyClaimed(key: "k"))", "ok",
            ]
        )
        #expect(store.statistics.transactions - before.transactions == 1)
        #expect(store.statistics.operations - before.operations == 4)
        #expect(try await store.viewModels(of: tokenHash(1)).map(\.version) == [1])
        #expect(try await store.viewModels(of: tokenHash(2)).map(\.key.path) == ["form"])
        #expect(try await store.viewModels(of: tokenHash(3)).map(\.key.path) == ["claimed1", "form"])
        #expect(try await store.session(tokenHash(4)) != nil)
        try await store.close()
    }
}
