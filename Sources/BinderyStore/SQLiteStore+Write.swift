import Foundation
import GRDB

/// One view-model write inside the writer's transaction: version check, upsert, log, pruning.
extension SQLiteStore {
    static func apply(_ write: ViewModelWrite, policy: VersionLogPolicy, in db: Database) throws {
        let key = write.key
        let arguments: StatementArguments = [key.session.bytes, key.path]
        guard try fetchSession(db, key.session) != nil else { throw StoreError.sessionNotFound(key.session) }
        let stored = try Row.fetchOne(
            db, sql: "SELECT version, log_floor FROM view_model WHERE session = ? AND path = ?", arguments: arguments
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
            try db.execute(
                sql: "INSERT INTO version_log (session, path, version, snapshot, logged_at) VALUES (?, ?, ?, ?, ?)",
                arguments: arguments + [write.version, snapshot, write.at.storeValue]
            )
        }
        try prune(key, policy: policy, now: write.at, in: db)
        try db.execute(
            sql: "UPDATE session SET last_used_at = MAX(last_used_at, ?) WHERE token_hash = ?",
            arguments: [write.at.storeValue, key.session.bytes]
        )
    }

    private static func upsert(_ write: ViewModelWrite, logFloor: Int, in db: Database) throws {
        try db.execute(
            sql: """
                INSERT INTO view_model
                    (session, path, version, state, command_name, command_started_at, command_interrupted, log_floor)
                VALUES (?, ?, ?, ?, ?, ?, 0, ?)
                ON CONFLICT (session, path) DO UPDATE SET
                    version = excluded.version, state = excluded.state, command_name = excluded.command_name,
                    command_started_at = excluded.command_started_at, command_interrupted = 0,
                    log_floor = excluded.log_floor
                """,
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
    private static func prune(_ key: ViewModelKey, policy: VersionLogPolicy, now: Date, in db: Database) throws {
        let arguments: StatementArguments = [key.session.bytes, key.path]
        let entries = try Row.fetchAll(
            db,
            sql: "SELECT version, logged_at FROM version_log WHERE session = ? AND path = ? ORDER BY version DESC",
            arguments: arguments
        ).map { (version: $0[0] as Int, loggedAt: Date(storeValue: $0[1])) }
        guard let dropped = policy.highestDroppedVersion(newestFirst: entries, now: now) else { return }
        try db.execute(
            sql: "DELETE FROM version_log WHERE session = ? AND path = ? AND version <= ?",
            arguments: arguments + [dropped]
        )
        try db.execute(
            sql: "UPDATE view_model SET log_floor = MAX(log_floor, ?) WHERE session = ? AND path = ?",
            arguments: [dropped] + arguments
        )
    }
}
