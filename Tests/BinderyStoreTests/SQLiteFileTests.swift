import Foundation
import GRDB
import Testing

@testable import BinderyStore

@Suite("SQLite store on a file")
struct SQLiteFileTests {
    @Test func dataSurvivesClosingAndReopening() async throws {
        try await withTemporaryDirectory { directory in
            let path = directory.appendingPathComponent("nested/dir/bindery.sqlite").path
            let store = try SQLiteStore(path: path, logPolicy: VersionLogPolicy(maxCount: 2, maxAge: 3600))
            _ = try await store.createSession(tokenHash(1), at: t0)
            for version in 1...3 {
                try await store.commit([write(key(1), expected: version == 1 ? nil : version - 1, version: version)])
            }
            try await store.touchSession(tokenHash(1), at: at(9))
            try await store.close()

            let reopened = try SQLiteStore(path: path, logPolicy: VersionLogPolicy(maxCount: 2, maxAge: 3600))
            #expect(
                try await reopened.session(tokenHash(1))
                    == StoredSession(tokenHash: tokenHash(1), createdAt: t0, lastUsedAt: at(9)))
            #expect(try await reopened.viewModels(of: tokenHash(1)).map(\.version) == [3])
            #expect(versionNumbers(try await reopened.versions(of: key(1), after: 1)) == [2, 3])
            #expect(try await reopened.versions(of: key(1), after: 0) == .unavailable)
            // Versions continue where they were.
            try await reopened.commit([write(key(1), expected: 3, version: 4)])
            try await reopened.close()
        }
    }

    @Test func theLogIsCheckpointedOnAConnectionOfItsOwnOnceTheWriterIsIdle() async throws {
        try await withTemporaryDirectory { directory in
            let path = directory.appendingPathComponent("bindery.sqlite").path
            let store = try SQLiteStore(path: path)
            _ = try await store.createSession(tokenHash(1), at: t0)
            try await store.commit([write(key(1), expected: nil, version: 1)])
            let checkpointer = try #require(store.checkpointer)
            // Closing waits for the checkpoint that the idle writer started.
            try await store.close()
            let statistics = checkpointer.statistics
            #expect(statistics.checkpoints >= 1)
            let last = try #require(statistics.last)
            #expect(last.walFrameCount > 0, "the commits were in the log")
            #expect(last.checkpointedFrameCount == last.walFrameCount, "and all of it went into the file")
        }
    }

    @Test func theWriterLeavesCheckpointsToTheCheckpointer() async throws {
        try await withTemporaryDirectory { directory in
            let store = try SQLiteStore(path: directory.appendingPathComponent("bindery.sqlite").path)
            let threshold = try await store.database.writeWithoutTransaction {
                try Int.fetchOne($0, sql: "PRAGMA wal_autocheckpoint")
            }
            #expect(threshold == 16000)
            try await store.close()
        }
    }

    @Test func acknowledgedWritesAreThereWithoutACleanClose() async throws {
        try await withTemporaryDirectory { directory in
            let path = directory.appendingPathComponent("bindery.sqlite").path
            // The first store is never closed: its committed transactions are only in the WAL, as
            // after a `kill -9`. A second opener (a restarted process) must see all of them.
            let crashed = try SQLiteStore(path: path)
            _ = try await crashed.createSession(tokenHash(1), at: t0)
            try await crashed.commit([write(key(1), expected: nil, version: 1)])
            try await crashed.commit([write(key(1), expected: 1, version: 2)])
            #expect(FileManager.default.fileExists(atPath: path + "-wal"))

            let restarted = try SQLiteStore(path: path)
            #expect(try await restarted.viewModels(of: tokenHash(1)).map(\.version) == [2])
            #expect(versionNumbers(try await restarted.versions(of: key(1), after: 0)) == [1, 2])
            try await restarted.close()
        }
    }

    @Test func runningCommandsComeBackInterruptedAfterAReopen() async throws {
        try await withTemporaryDirectory { directory in
            let path = directory.appendingPathComponent("bindery.sqlite").path
            let load = DeferredCommand(name: "load", startedAt: at(2))
            let store = try SQLiteStore(path: path)
            _ = try await store.createSession(tokenHash(1), at: t0)
            try await store.commit([write(key(1, "list"), expected: nil, version: 1, command: load)])
            try await store.close()

            let reopened = try SQLiteStore(path: path)
            #expect(try await reopened.markRunningCommandsInterrupted() == [key(1, "list")])
            #expect(try await reopened.viewModels(of: tokenHash(1)).first?.command == .interrupted(load))
            try await reopened.close()
        }
    }

    @Test func theFileUsesWALWithSynchronousNormal() async throws {
        try await withTemporaryDirectory { directory in
            let store = try SQLiteStore(path: directory.appendingPathComponent("bindery.sqlite").path)
            let (journal, synchronous) = try await store.database.write { db in
                (try String.fetchOne(db, sql: "PRAGMA journal_mode"), try Int.fetchOne(db, sql: "PRAGMA synchronous"))
            }
            #expect(journal == "wal")
            #expect(synchronous == 1)  // NORMAL
            try await store.close()
        }
    }

    @Test func aCorruptFileGivesAOneLineErrorNamingIt() async throws {
        try await withTemporaryDirectory { directory in
            let path = directory.appendingPathComponent("bindery.sqlite").path
            try Data(repeating: 0x5A, count: 8192).write(to: URL(fileURLWithPath: path))

            let error = try #require(throws: StoreError.self) { try SQLiteStore(path: path) }

            guard case .cannotOpen(let named, _) = error else {
                Issue.record("expected cannotOpen, got \(error)")
                return
            }
            #expect(named == path)
            #expect(error.description.hasPrefix("cannot open store \(path): "))
            #expect(!error.description.contains("\n"))
        }
    }

    @Test func aDamagedPageFailsTheIntegrityCheck() async throws {
        try await withTemporaryDirectory { directory in
            let path = directory.appendingPathComponent("bindery.sqlite").path
            let store = try SQLiteStore(path: path)
            _ = try await store.createSession(tokenHash(1), at: t0)
            try await store.commit((1...200).map { write(key(1, "vm\($0)"), expected: nil, version: 1) })
            try await store.close()
            // Overwrite everything after the first page (the header stays valid).
            let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
            try handle.seek(toOffset: 4096)
            try handle.write(contentsOf: Data(repeating: 0xA5, count: 16384))
            try handle.close()

            let error = try #require(throws: StoreError.self) { try SQLiteStore(path: path) }

            #expect(error.description.hasPrefix("cannot open store \(path): "))
            #expect(!error.description.contains("\n"))
        }
    }

    @Test func aDirectoryInPlaceOfTheFileCannotBeOpened() async throws {
        try await withTemporaryDirectory { directory in
            let error = try #require(throws: StoreError.self) { try SQLiteStore(path: directory.path) }
            #expect(error.description.hasPrefix("cannot open store \(directory.path): "))
            #expect(!error.description.contains("\n"))
        }
    }

    @Test func writesToAClosedStoreFailAsUnavailable() async throws {
        try await withTemporaryDirectory { directory in
            let store = try SQLiteStore(path: directory.appendingPathComponent("bindery.sqlite").path)
            _ = try await store.createSession(tokenHash(1), at: t0)
            try await store.close()

            let error = await #expect(throws: StoreError.self) {
                try await store.commit([write(key(1), expected: nil, version: 1)])
            }
            guard case .unavailable = error else {
                Issue.record("expected unavailable, got \(String(describing: error))")
                return
            }
            #expect(store.statistics.failedTransactions == 1)
        }
    }

    @Test func aReadOnlyDatabaseFailsTheCommitAndChangesNothing() async throws {
        try await withTemporaryDirectory { directory in
            let store = try SQLiteStore(path: directory.appendingPathComponent("bindery.sqlite").path)
            _ = try await store.createSession(tokenHash(1), at: t0)
            try await store.database.writeWithoutTransaction { db in try db.execute(sql: "PRAGMA query_only = 1") }

            let error = await #expect(throws: StoreError.self) {
                try await store.commit([write(key(1), expected: nil, version: 1)])
            }
            guard case .unavailable = error else {
                Issue.record("expected unavailable, got \(String(describing: error))")
                return
            }
            #expect(try await store.viewModels(of: tokenHash(1)).isEmpty)
            #expect(try await store.session(tokenHash(1)) != nil)  // reads keep working
            try await store.close()
        }
    }
}
