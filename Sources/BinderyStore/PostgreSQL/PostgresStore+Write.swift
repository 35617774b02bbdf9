import Foundation
import Logging
import PostgresNIO

/// One view-model write inside the writer's transaction: session check, version check, log,
/// pruning and the change notification to the other nodes holding its session.
extension PostgresStore {
    /// What a write needs besides itself.
    struct WriteContext: Sendable {
        var policy: VersionLogPolicy
        var nodeID: String
        /// This node's channel: its own writes are not sent to it.
        var ownChannel: String
        var logger: Logger
    }

    static func apply(_ write: ViewModelWrite, context: WriteContext, on connection: PostgresConnection) async throws {
        let key = write.key
        let logger = context.logger
        // Touching the session first also locks it against a concurrent delete until the commit.
        let granularity = StoredSession.writeUseGranularity
        guard try await touch(key.session, at: write.at, granularity: granularity, on: connection, logger: logger) else {
            throw StoreError.sessionNotFound(key.session)
        }
        guard write.version > (write.expected ?? Int.min) else {
            let stored = try await storedVersion(of: key, on: connection, logger: logger)
            guard stored == write.expected else { throw StoreError.conflict(key, expected: write.expected, stored: stored) }
            throw StoreError.versionNotIncreasing(key, expected: write.expected, version: write.version)
        }
        guard try await writeRow(write, on: connection, logger: logger) else {
            let stored = try await storedVersion(of: key, on: connection, logger: logger)
            throw StoreError.conflict(key, expected: write.expected, stored: stored)
        }
        if let snapshot = write.snapshot {
            try await connection.query(
                """
                INSERT INTO bindery_version_log (session, path, version, snapshot, logged_at)
                VALUES (\(key.session.bytes), \(key.path), \(write.version), \(snapshot), \(write.at.storeValue))
                """,
                logger: logger
            )
        } else {
            try await connection.query(
                """
                DELETE FROM bindery_version_log
                WHERE session = \(key.session.bytes) AND path = \(key.path) AND version <= \(write.version)
                """,
                logger: logger
            )
        }
        try await prune(write, policy: context.policy, on: connection, logger: logger)
        if let claim = write.claim { try await record(claim, on: connection, logger: logger) }
        // Its own statement, after the touch: a new snapshot, which sees every holder committed
        // before this write's session lock was granted (see SpaceHolder).
        let change = ViewModelChange(key: key, version: write.version, node: context.nodeID)
        _ = try await connection.query(
            """
            SELECT pg_notify(channel, \(change.payload)) FROM bindery_holder
            WHERE space = \(key.session.bytes) AND channel <> \(context.ownChannel)
            """,
            logger: logger
        ).hasRow()
    }

    /// Inserts the first version (doing nothing if a row exists) or updates the expected one;
    /// whether a row was written. A concurrent writer of the same row makes this wait for its
    /// commit, then see its version: exactly one of them writes.
    private static func writeRow(
        _ write: ViewModelWrite, on connection: PostgresConnection, logger: Logger
    )
        async throws -> Bool
    {
        let key = write.key
        let command = write.runningCommand
        let logged = write.snapshot != nil
        guard let expected = write.expected else {
            let logFloor = logged ? write.version - 1 : write.version
            return try await connection.query(
                """
                INSERT INTO bindery_view_model
                    (session, path, version, state, shape, command_name, command_started_at, command_interrupted, log_floor)
                VALUES (\(key.session.bytes), \(key.path), \(write.version), \(write.state), \(write.shape), \(command?.name),
                    \(command?.startedAt.storeValue), false, \(logFloor))
                ON CONFLICT (session, path) DO NOTHING RETURNING 1
                """,
                logger: logger
            ).hasRow()
        }
        // A write that keeps the same command running (another node's PATCH during it) keeps its
        // start and its lease: only the node running it renews the lease.
        let continues = command.map { $0.name } ?? ""
        return try await connection.query(
            """
            UPDATE bindery_view_model SET version = \(write.version), state = \(write.state), shape = \(write.shape),
                command_started_at = CASE WHEN command_name = \(continues) AND NOT command_interrupted THEN command_started_at
                    ELSE \(command?.startedAt.storeValue) END,
                command_renewed_at = CASE WHEN command_name = \(continues) AND NOT command_interrupted THEN command_renewed_at ELSE NULL END,
                command_name = \(command?.name), command_interrupted = false,
                log_floor = CASE WHEN \(logged) THEN log_floor ELSE \(write.version) END
            WHERE session = \(key.session.bytes) AND path = \(key.path) AND version = \(expected)
            RETURNING 1
            """,
            logger: logger
        ).hasRow()
    }

    private static func storedVersion(
        of key: ViewModelKey, on connection: PostgresConnection, logger: Logger
    )
        async throws -> Int?
    {
        let rows = try await connection.query(
            "SELECT version FROM bindery_view_model WHERE session = \(key.session.bytes) AND path = \(key.path)",
            logger: logger
        )
        for try await version in rows.decode(Int.self) {
            return version
        }
        return nil
    }

    /// Drops log entries beyond the policy (the versions more than `maxCount` below the
    /// write's, and the highest entry that is too old with everything below it) and raises the
    /// log floor past them, in one statement.
    private static func prune(
        _ write: ViewModelWrite, policy: VersionLogPolicy, on connection: PostgresConnection, logger: Logger
    ) async throws {
        let key = write.key
        let cutoff = write.at.addingTimeInterval(-policy.maxAge).storeValue
        let droppedByCount = policy.highestVersionDroppedByCount(newest: write.version)
        try await connection.query(
            """
            WITH dropped AS (
                SELECT GREATEST(\(droppedByCount)::bigint, (
                    SELECT max(version) FROM bindery_version_log
                    WHERE session = \(key.session.bytes) AND path = \(key.path) AND logged_at < \(cutoff)
                )) AS version
            ), gone AS (
                DELETE FROM bindery_version_log l USING dropped
                WHERE l.session = \(key.session.bytes) AND l.path = \(key.path) AND l.version <= dropped.version
            )
            UPDATE bindery_view_model m SET log_floor = GREATEST(m.log_floor, dropped.version) FROM dropped
            WHERE m.session = \(key.session.bytes) AND m.path = \(key.path) AND m.log_floor < dropped.version
            """,
            logger: logger
        )
    }
}
