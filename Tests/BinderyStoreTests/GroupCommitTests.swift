import Foundation
import Testing

@testable import BinderyStore

@Suite("Group commit in the SQLite store")
struct GroupCommitTests {
    /// A file store with `count` sessions, one per byte from 1.
    private func store(in directory: URL, sessions count: UInt8) async throws -> SQLiteStore {
        let store = try SQLiteStore(path: directory.appendingPathComponent("bindery.sqlite").path)
        for byte in 1...count {
            _ = try await store.createSession(tokenHash(byte), at: t0)
        }
        return store
    }

    @Test func queuedWritesFromManySessionsShareOneTransaction() async throws {
        try await withTemporaryDirectory { directory in
            let store = try await store(in: directory, sessions: 40)
            let before = store.statistics
            store.committer.hold()

            try await withThrowingTaskGroup(of: Void.self) { group in
                for byte: UInt8 in 1...40 {
                    group.addTask { try await store.commit([write(key(byte), expected: nil, version: 1)]) }
                }
                await store.committer.waitUntilQueued(40)
                store.committer.release()
                try await group.waitForAll()
            }

            #expect(store.statistics.transactions - before.transactions == 1)
            #expect(store.statistics.operations - before.operations == 40)
            for byte: UInt8 in 1...40 {
                #expect(try await store.viewModels(of: tokenHash(byte)).map(\.version) == [1])
            }
            try await store.close()
        }
    }

    @Test func concurrentWritersAreAllAcknowledgedInFewerTransactions() async throws {
        try await withTemporaryDirectory { directory in
            let store = try await store(in: directory, sessions: 20)
            let before = store.statistics

            try await withThrowingTaskGroup(of: Void.self) { group in
                for byte: UInt8 in 1...20 {
                    group.addTask {
                        for version in 1...10 {
                            try await store.commit([
                                write(key(byte), expected: version == 1 ? nil : version - 1, version: version)
                            ])
                        }
                    }
                }
                try await group.waitForAll()
            }

            let delta = store.statistics.transactions - before.transactions
            #expect(store.statistics.operations - before.operations == 200)
            #expect(delta >= 10 && delta < 200)  // each session commits 10 times in a row; seen: 11
            for byte: UInt8 in 1...20 {
                #expect(try await store.viewModels(of: tokenHash(byte)).map(\.version) == [10])
            }
            try await store.close()
        }
    }

    @Test func aConflictFailsOnlyItsOwnCaller() async throws {
        try await withTemporaryDirectory { directory in
            let store = try await store(in: directory, sessions: 3)
            try await store.commit([write(key(2), expected: nil, version: 1)])
            let before = store.statistics
            store.committer.hold()

            let first = Task { try await store.commit([write(key(1), expected: nil, version: 1)]) }
            let conflicting = Task {
                try await store.commit([
                    write(key(2, "list"), expected: nil, version: 1), write(key(2), expected: 5, version: 6),
                ])
            }
            let third = Task { try await store.commit([write(key(3), expected: nil, version: 1)]) }
            await store.committer.waitUntilQueued(3)
            store.committer.release()

            try await first.value
            await #expect(throws: StoreError.conflict(key(2), expected: 5, stored: 1)) { try await conflicting.value }
            try await third.value

            #expect(store.statistics.transactions - before.transactions == 1)
            #expect(store.statistics.operations - before.operations == 2)
            #expect(try await store.viewModels(of: tokenHash(1)).map(\.version) == [1])
            #expect(try await store.viewModels(of: tokenHash(2)).map(\.key.path) == ["form"])
            #expect(try await store.viewModels(of: tokenHash(3)).map(\.version) == [1])
            try await store.close()
        }
    }

    @Test func aFailedTransactionFailsEveryCallerInIt() async throws {
        try await withTemporaryDirectory { directory in
            let store = try await store(in: directory, sessions: 3)
            store.committer.hold()

            let first = Task { try await store.commit([write(key(1), expected: nil, version: 1)]) }
            let second = Task { try await store.commit([write(key(2), expected: nil, version: 1)]) }
            let third = Task { try await store.commit([write(key(3), expected: nil, version: 1)]) }
            await store.committer.waitUntilQueued(3)
            try await store.database.writeWithoutTransaction { db in try db.execute(sql: "PRAGMA query_only = 1") }
            store.committer.release()

            for outcome in [await result(of: first), await result(of: second), await result(of: third)] {
                guard case .failure(.unavailable) = outcome else {
                    Issue.record("expected unavailable, got \(outcome)")
                    continue
                }
            }
            #expect(store.statistics.failedTransactions == 1)
            #expect(store.statistics.operations == 3)  // the three sessions only
        }
    }

    private func result(of task: Task<Void, any Error>) async -> Result<Void, StoreError> {
        do {
            try await task.value
            return .success(())
        } catch let error as StoreError {
            return .failure(error)
        } catch {
            return .failure(.unavailable(reason: "unexpected \(error)"))
        }
    }
}
