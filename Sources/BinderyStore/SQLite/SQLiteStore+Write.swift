import Foundation
import GRDB

/// View-model writes inside the writer's transaction: version check, upsert, log, pruning.
///
/// The common write (a view model at its expected version, with a snapshot to log) takes three
/// statements: one conditional `UPDATE` that is also the version check and raises the log's
/// floor, the pruning `DELETE`, and the log `INSERT`. The session's last use is looked at once per
/// commit and written only when it moves by more than ``StoredSession/writeUseGranularity``.
/// Refusals (unknown session, version conflict) are told apart only when that `UPDATE` changed
/// nothing, so the happy path pays no extra look-up for them.
///
/// Pruning reads nothing: the count drops the versions more than `maxCount` below the write's
/// (``VersionLogPolicy/highestVersionDroppedByCount(newest:)``), and the age is applied when the
/// log is read (``SQLiteStore/versions(of:after:)``), where it gives the same answer as pruning
/// at each write. Finding the entries too old at each write was a scan of the view model's whole
/// log, the most expensive statement of a PATCH.
extension SQLiteStore {
    /// Applies `writes` (all or none, inside the caller's savepoint) with the idempotency keys they
    /// claim, and records each session's use.
    static func apply(_ writes: [ViewModelWrite], policy: VersionLogPolicy, in db: Database) throws {
        var lastUse: [SessionTokenHash: Date] = [:]
        for write in writes {
            try apply(write, policy: policy, in: db)
            if let claim = write.claim { try record(claim, in: db) }
            lastUse[write.key.session] = max(lastUse[write.key.session] ?? write.at, write.at)
        }
        // Reads the session's row, writes it only when the use moves by more than the granularity.
        for (session, at) in lastUse {
            try db.cachedStatement(sql: "UPDATE session SET last_used_at = ? WHERE token_hash = ? AND last_used_at < ?")
                .execute(arguments: [at.storeValue, session.bytes, at.storeValue - StoredSession.writeUseGranularity])
        }
    }

    /// One write: refused with ``StoreError`` when its session is gone, the stored version is not
    /// the expected one, or the version does not increase.
    private static func apply(_ write: ViewModelWrite, policy: VersionLogPolicy, in db: Database) throws {
        let key = write.key
        guard write.version > (write.expected ?? Int.min) else {
            throw try refusal(of: write, in: db)
                ?? StoreError.versionNotIncreasing(key, expected: write.expected, version: write.version)
        }
        // What the count drops once this write's entry is in (the age is applied when reading).
        let dropped = write.snapshot == nil ? nil : policy.highestVersionDroppedByCount(newest: write.version)
        let updated: Bool
        if let expected = write.expected {
            updated = try update(write, expected: expected, dropped: dropped, in: db)
        } else {
            updated = try insert(write, in: db)
        }
        guard updated else {
            throw try refusal(of: write, in: db) ?? StoreError.conflict(key, expected: write.expected, stored: write.expected)
        }
        let arguments: StatementArguments = [key.session.bytes, key.path]
        // Versions start at 1: a floor below that has nothing under it.
        if let floor = write.snapshot == nil ? write.version : dropped, floor >= 1 {
            try db.cachedStatement(sql: "DELETE FROM version_log WHERE session = ? AND path = ? AND version <= ?")
                .execute(arguments: arguments + [floor])
        }
        if let snapshot = write.snapshot {
            try db.cachedStatement(
                sql: "INSERT INTO version_log (session, path, version, snapshot, logged_at) VALUES (?, ?, ?, ?, ?)"
            ).execute(arguments: arguments + [write.version, snapshot, write.at.storeValue])
        }
    }

    /// The row at version `expected` takes the write; false when no row is at that version. A
    /// write without snapshot restarts the log at its own version; one with a snapshot raises the
    /// floor past what the count drops.
    private static func update(_ write: ViewModelWrite, expected: Int, dropped: Int?, in db: Database) throws -> Bool {
        let floor: DatabaseValue = write.snapshot == nil ? write.version.databaseValue : (dropped?.databaseValue ?? .null)
        try db.cachedStatement(
            sql: """
                UPDATE view_model SET
                    version = ?, state = ?, shape = ?, command_name = ?, command_started_at = ?, command_interrupted = 0,
                    log_floor = CASE WHEN ? IS NULL THEN log_floor WHEN ? THEN ? ELSE MAX(log_floor, ?) END
                WHERE session = ? AND path = ? AND version = ?
                """
        ).execute(
            arguments: [
                write.version, write.state, write.shape, write.runningCommand?.name, write.runningCommand?.startedAt.storeValue,
                floor, write.snapshot == nil, floor, floor,
                write.key.session.bytes, write.key.path, expected,
            ]
        )
        return db.changesCount == 1
    }

    /// The first write of a view model; false when a row is already there. A log starts empty
    /// just below the write's version (or at it, without a snapshot). An unknown session is
    /// refused by the foreign key: the row is not written either.
    private static func insert(_ write: ViewModelWrite, in db: Database) throws -> Bool {
        let logFloor = write.snapshot == nil ? write.version : write.version - 1
        do {
            try db.cachedStatement(
                sql: """
                    INSERT INTO view_model
                        (session, path, version, state, shape, command_name, command_started_at, command_interrupted, log_floor)
                    VALUES (?, ?, ?, ?, ?, ?, ?, 0, ?)
                    ON CONFLICT (session, path) DO NOTHING
                    """
            ).execute(
                arguments: [
                    write.key.session.bytes, write.key.path, write.version, write.state, write.shape,
                    write.runningCommand?.name, write.runningCommand?.startedAt.storeValue, logFloor,
                ]
            )
        } catch let error as DatabaseError where error.extendedResultCode == .SQLITE_CONSTRAINT_FOREIGNKEY {
            throw StoreError.sessionNotFound(write.key.session)
        }
        return db.changesCount == 1
    }

    /// Why a write cannot apply: its session is gone, or the stored version is not the expected
    /// one; `nil` when neither is the reason.
    private static func refusal(of write: ViewModelWrite, in db: Database) throws -> StoreError? {
        let key = write.key
        let sessionExists = try Bool.fetchOne(
            try db.cachedStatement(sql: "SELECT 1 FROM session WHERE token_hash = ?"), arguments: [key.session.bytes]
        )
        guard sessionExists != nil else { return .sessionNotFound(key.session) }
        let stored = try Int.fetchOne(
            try db.cachedStatement(sql: "SELECT version FROM view_model WHERE session = ? AND path = ?"),
            arguments: [key.session.bytes, key.path]
        )
        return stored == write.expected ? nil : .conflict(key, expected: write.expected, stored: stored)
    }
}
