import Foundation
import GRDB

/// One view-model write inside the writer's transaction: version check, upsert, log, pruning.
extension SQLiteStore {
    static func apply(_ write: ViewModelWrite, policy: VersionLogPolicy, in db: Database) throws {
        let key = write.key
        let arguments: StatementArguments = [key.session.bytes, key.path]
        let sessionExists = try Bool.fetchOne(
            try db.cachedStatement(sql: "SELECT 1 FROM session WHERE token_hash = ?"), arguments: [key.session.bytes]
        )
        guard sessionExists != nil else { throw StoreError.sessionNotFound(key.session) }
        let stored = try Row.fetchOne(
            try db.cachedStatement(sql: "SELECT version, log_floor FROM view_model WHERE session = ? AND path = ?"),
            arguments: arguments
        )
        let storedVersion: Int? = stored?[0]
        guard write.expected == storedVersion else {
            throw StoreError.conflict(key, expected: write.expected, stored: storedVersion)
        }
        guard write.version > (write.expected ?? Int.min) else {
            throw StoreError.versionNotIncreasing(key, expected: write.expected, version: write.version)
        }
        let logFloor: Int = write.snapshot == nil ? write.version : stored?[1] ?? write.version - 1
        try upsert(write, logFloor: logFloor, in: db)
        if let snapshot = write.snapshot {
            try db.cachedStatement(
                sql: "INSERT INTO version_log (session, path, version, snapshot, logged_at) VALUES (?, ?, ?, ?, ?)"
            ).execute(arguments: arguments + [write.version, snapshot, write.at.storeValue])
        }
        try prune(key, policy: policy, now: write.at, in: db)
        try db.cachedStatement(sql: "UPDATE session SET last_used_at = MAX(last_used_at, ?) WHERE token_hash = ?")
            .execute(arguments: [write.at.storeValue, key.session.bytes])
    }

    private static func upsert(_ write: ViewModelWrite, logFloor: Int, in db: Database) throws {
        try db.cachedStatement(
            sql: """
                INSERT INTO view_model
                    (session, path, version, state, command_name, command_started_at, command_interrupted, log_floor)
                VALUES (?, ?, ?, ?, ?, ?, 0, ?)
                ON CONFLICT (session, path) DO UPDATE SET
                    version = excluded.version, state = excluded.state, command_name = excluded.command_name,
                    command_started_at = excluded.command_started_at, command_interrupted = 0,
                    log_floor = excluded.log_floor
                """
        ).execute(
            arguments: [
                write.key.session.bytes, write.key.path, write.version, write.state,
                write.runningCommand?.name, write.runningCommand?.startedAt.storeValue, logFloor,
            ]
        )
        if write.snapshot == nil {
            try db.execute(
                sql: "DELETE FROM version_log WHERE session = ? AND path = ? AND version <= ?",
                arguments: [write.key.session.bytes, write.key.path, logFloor]
            )
        }
    }

    /// Drops log entries beyond the policy and raises the view model's log floor past them.
    ///
    /// The highest dropped version is the newest entry that is either past the newest
    /// `maxCount` or older than `maxAge` (``VersionLogPolicy/highestDroppedVersion(newestFirst:now:)``
    /// in one query): one indexed look-up per write instead of reading the whole log.
    private static func prune(_ key: ViewModelKey, policy: VersionLogPolicy, now: Date, in db: Database) throws {
        let arguments: StatementArguments = [key.session.bytes, key.path]
        let cutoff = now.addingTimeInterval(-policy.maxAge).storeValue
        let dropped = try Int.fetchOne(
            try db.cachedStatement(sql: """
                SELECT MAX(v) FROM (
                    SELECT (SELECT version FROM version_log WHERE session = ? AND path = ?
                        ORDER BY version DESC LIMIT 1 OFFSET ?) AS v
                    UNION ALL
                    SELECT (SELECT MAX(version) FROM version_log WHERE session = ? AND path = ? AND logged_at < ?)
                )
                """),
            arguments: arguments + [policy.maxCount] + arguments + [cutoff]
        )
        guard let dropped else { return }
        try db.cachedStatement(sql: "DELETE FROM version_log WHERE session = ? AND path = ? AND version <= ?")
            .execute(arguments: arguments + [dropped])
        try db.cachedStatement(sql: "UPDATE view_model SET log_floor = MAX(log_floor, ?) WHERE session = ? AND path = ?")
            .execute(arguments: [dropped] + arguments)
    }
}
