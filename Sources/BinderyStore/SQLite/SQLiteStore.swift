import Foundation
import GRDB

/// The embedded ``SessionStateStore``: one SQLite file through GRDB, in WAL mode, written by a
/// single ``GroupCommitter`` so that many sessions' writes share one transaction.
///
/// Durability: WAL with `synchronous = NORMAL`. A commit is in the WAL file (in the operating
/// system's cache) before any caller is acknowledged, so a crash or `kill -9` of the process loses
/// no acknowledged write. The WAL is synced to disk only at checkpoints, so a power loss or kernel
/// crash may lose the last transactions (never corrupting the file). `FULL` would survive that too,
/// at the cost of an fsync per transaction; group commit would soften it, but a session store whose
/// state users can re-enter does not need it.
package final class SQLiteStore: SessionStateStore {
    /// The file, or `nil` for an in-memory database.
    package let path: String?
    let database: any DatabaseWriter
    let committer: GroupCommitter
    /// Checkpoints the file's write-ahead log off the writer; nil in memory.
    let checkpointer: WALCheckpointer?
    let logPolicy: VersionLogPolicy

    private init(
        path: String?, database: any DatabaseWriter, checkpointer: WALCheckpointer?, logPolicy: VersionLogPolicy
    ) {
        self.path = path
        self.database = database
        self.checkpointer = checkpointer
        self.committer = GroupCommitter(writer: database, checkpointer: checkpointer)
        self.logPolicy = logPolicy
    }

    /// Opens the file at `path`, creating it and its parent directory if needed, and migrates it.
    /// Throws ``StoreError/cannotOpen(path:reason:)`` for a file that cannot be read, written or
    /// migrated, or that fails SQLite's quick integrity check.
    package convenience init(path: String, logPolicy: VersionLogPolicy = VersionLogPolicy()) throws(StoreError) {
        let pool: DatabasePool
        let checkpointer: WALCheckpointer
        do {
            let directory = URL(fileURLWithPath: path).deletingLastPathComponent()
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            pool = try DatabasePool(path: path, configuration: Self.configuration())
            try Self.migrator.migrate(pool)
            try pool.read(Self.checkIntegrity)
            checkpointer = try WALCheckpointer(path: path, configuration: Self.configuration())
        } catch {
            throw .cannotOpen(path: path, reason: GroupCommitter.reason(for: error))
        }
        self.init(path: path, database: pool, checkpointer: checkpointer, logPolicy: logPolicy)
    }

    /// A fresh in-memory database with the same schema and rules, for tests.
    package static func inMemory(logPolicy: VersionLogPolicy = VersionLogPolicy()) throws -> SQLiteStore {
        let queue = try DatabaseQueue(configuration: configuration())
        try migrator.migrate(queue)
        return SQLiteStore(path: nil, database: queue, checkpointer: nil, logPolicy: logPolicy)
    }

    /// How many transactions the single writer committed, and how many operations they held.
    package var statistics: GroupCommitStatistics {
        committer.statistics
    }

    /// Waits for the running transaction and checkpoint, folds the WAL back into the file (so the
    /// file alone holds everything), then closes the database: later operations throw
    /// ``StoreError/unavailable(reason:)``.
    ///
    /// A checkpoint another connection to the file is running makes SQLite refuse this one at once
    /// (`SQLITE_BUSY`, no busy handler): it is tried a few times, then the log is left for the next
    /// opener, which reads it as after a crash. Nothing committed is lost either way.
    package func close() async throws {
        await committer.waitUntilIdle()
        try await checkpointer?.close()
        for attempt in 1...5 {
            do {
                _ = try await database.writeWithoutTransaction { db in try db.checkpoint(.truncate) }
                break
            } catch let error as DatabaseError where error.resultCode == .SQLITE_BUSY && attempt < 5 {
                try? await Task.sleep(for: .milliseconds(20))
            } catch let error as DatabaseError where error.resultCode == .SQLITE_BUSY {
                break
            }
        }
        try database.close()
    }

    private static func configuration() -> Configuration {
        var configuration = Configuration()
        configuration.label = "BinderyStore"
        configuration.busyMode = .timeout(5)
        configuration.prepareDatabase { db in
            if !db.configuration.readonly {
                try db.execute(sql: "PRAGMA synchronous = NORMAL")
                // A file store's log is checkpointed by its ``WALCheckpointer``; the writer does it
                // only past 16 times SQLite's usual 1,000 pages (64 MB), should that fall behind.
                try db.execute(sql: "PRAGMA wal_autocheckpoint = 16000")
            }
        }
        return configuration
    }

    /// Runs a read on a reader connection, turning database errors into ``StoreError``.
    func read<T: Sendable>(_ work: @escaping @Sendable (Database) throws -> T) async throws -> T {
        do {
            return try await database.read(work)
        } catch let error as StoreError {
            throw error
        } catch let error as CancellationError {
            throw error
        } catch {
            throw StoreError.unavailable(reason: GroupCommitter.reason(for: error))
        }
    }
}
