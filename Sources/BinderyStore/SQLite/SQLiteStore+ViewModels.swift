import Foundation
import GRDB

/// View models: load, commit with version checks, version log, interrupted commands.
extension SQLiteStore {
    /// Every view-model record of the session, ordered by path.
    package func viewModels(of tokenHash: SessionTokenHash) async throws -> [ViewModelRecord] {
        try await read { db in
            let rows = try Row.fetchAll(
                db,
                sql: """
                    SELECT path, version, state, command_name, command_started_at, command_interrupted, shape
                    FROM view_model WHERE session = ?
                    """,
                arguments: [tokenHash.bytes]
            )
            return rows.map { Self.record(from: $0, session: tokenHash) }.sorted { $0.key.path < $1.key.path }
        }
    }

    /// Applies a batch of writes all together or not at all.
    package func commit(_ writes: [ViewModelWrite]) async throws {
        guard !writes.isEmpty else { return }
        let policy = logPolicy
        try await committer.submit { db in
            try Self.apply(writes, policy: policy, in: db)
        }
    }

    /// The logged versions of a view model after `version`.
    ///
    /// The log's age limit is applied here, not at each write: the entries at or below the newest
    /// one older than `maxAge` at the time of the newest entry (the latest write that logged) are
    /// left out as if pruned. While write times only go forward, that is what pruning at each
    /// write would have left; the count keeps such entries bounded until it drops them.
    /// Every version of a view model the log still holds, oldest first.
    package func loggedVersions(of key: ViewModelKey) async throws -> [LoggedVersion] {
        try await read { db in
            try Row.fetchAll(
                db,
                sql: "SELECT version, snapshot, logged_at FROM version_log WHERE session = ? AND path = ? ORDER BY version",
                arguments: [key.session.bytes, key.path]
            ).map { LoggedVersion(version: $0[0], snapshot: $0[1], loggedAt: Date(storeValue: $0[2])) }
        }
    }

    package func versions(of key: ViewModelKey, after version: Int) async throws -> VersionHistory {
        let maxAge = logPolicy.maxAge
        return try await read { db in
            let arguments: StatementArguments = [key.session.bytes, key.path]
            guard
                let row = try Row.fetchOne(
                    try db.cachedStatement(
                        sql: """
                            SELECT version, log_floor, (
                                SELECT MAX(version) FROM version_log
                                WHERE session = ?1 AND path = ?2 AND logged_at < (
                                    SELECT logged_at FROM version_log WHERE session = ?1 AND path = ?2
                                    ORDER BY version DESC LIMIT 1
                                ) - ?3
                            )
                            FROM view_model WHERE session = ?1 AND path = ?2
                            """),
                    arguments: arguments + [maxAge]
                ),
                version >= max(row[1] as Int, row[2] as Int? ?? .min), version <= row[0] as Int
            else { return .unavailable }
            let entries = try Row.fetchAll(
                db,
                sql: """
                    SELECT version, snapshot, logged_at FROM version_log
                    WHERE session = ? AND path = ? AND version > ? ORDER BY version
                    """,
                arguments: arguments + [version]
            )
            return .versions(
                entries.map { LoggedVersion(version: $0[0], snapshot: $0[1], loggedAt: Date(storeValue: $0[2])) }
            )
        }
    }

    /// Marks every running deferred command interrupted.
    package func markRunningCommandsInterrupted() async throws -> [ViewModelKey] {
        try await committer.submit { db in
            let running = "command_name IS NOT NULL AND command_interrupted = 0"
            let rows = try Row.fetchAll(
                db, sql: "SELECT session, path FROM view_model WHERE \(running) ORDER BY session, path"
            )
            try db.execute(sql: "UPDATE view_model SET command_interrupted = 1 WHERE \(running)")
            return rows.compactMap { row in
                SessionTokenHash(bytes: row[0]).map { ViewModelKey(session: $0, path: row[1]) }
            }
        }
    }

    private static func record(from row: Row, session: SessionTokenHash) -> ViewModelRecord {
        var command: CommandState?
        if let name: String = row[3], let startedAt: Double = row[4] {
            let deferred = DeferredCommand(name: name, startedAt: Date(storeValue: startedAt))
            command = (row[5] as Bool) ? .interrupted(deferred) : .running(deferred)
        }
        return ViewModelRecord(
            key: ViewModelKey(session: session, path: row[0]), version: row[1], state: row[2], command: command,
            shape: row[6]
        )
    }
}
