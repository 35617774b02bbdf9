import Foundation
import Logging
import PostgresNIO
import Synchronization

/// The spaces one ``PostgresStore`` holds, in memory and in `bindery_holder` (one row per space
/// and node channel): a writer notifies the channel of every holder of the space but its own.
///
/// Why a hold misses nothing. `hold` commits its row (instant `h`), then runs
/// `SELECT … FROM bindery_session WHERE token_hash = space FOR UPDATE` in a transaction of its own
/// and returns when that lock is granted (and released at once). Every writer of the space takes
/// `FOR KEY SHARE` on that session row (`touch`) in a statement before its notify statement and
/// keeps it until it commits; `FOR UPDATE` conflicts with `FOR KEY SHARE` (PostgreSQL's row-lock
/// table), so it waits for every such writer still in flight. Take a writer W of the space:
/// - its notify statement started after `h`: under READ COMMITTED it has a new snapshot, sees the
///   row and notifies this node;
/// - it started before `h`: W's touch came earlier still, so the session row existed before `h`,
///   committed (the lock statement sees it: W either committed before the lock was asked for,
///   or holds `FOR KEY SHARE` and the lock waits for its commit) or inserted by W's own
///   transaction (the lock statement sees no row, and an insert of the same key waits for W,
///   then is undone). Either way W is committed when `hold` returns, and a read started after
///   that sees it.
/// The order (row committed first, lock second, in two transactions) matters: locking first and
/// inserting in the same transaction misses a session whose row commits between that lock
/// statement's snapshot and the hold's commit, when a write to it commits in that gap as well.
///
/// Rows of a node whose LISTEN connection is gone are deleted by any node when its own LISTEN
/// connection starts (`listener` is the LISTEN connection's `application_name`, looked up in
/// `pg_stat_activity`); after a reconnect a node restores its rows from memory (again with the
/// lock, for those that were deleted meanwhile) before its streams get `resynchronize`.
final class SpaceHolder: Sendable {
    /// This store instance's notification channel (`bindery_node_` and 16 hex digits).
    let channel: String
    /// The LISTEN connection's `application_name`, at most 63 bytes.
    let listener: String
    private let client: PostgresClient
    private let logger: Logger
    private let held = Mutex<Set<SessionTokenHash>>([])

    /// The holds of one store instance, with a new random channel.
    init(client: PostgresClient, listener: String, logger: Logger) {
        let random = (0..<8).map { _ in String(format: "%02x", UInt8.random(in: 0...255)) }.joined()
        self.channel = "bindery_node_" + random
        self.listener = listener
        self.client = client
        self.logger = logger
    }

    /// Holds `space`: its row committed, then every writer in flight waited for (see the type).
    func hold(_ space: SessionTokenHash) async throws {
        held.withLock { _ = $0.insert(space) }
        _ = try await client.query(
            """
            INSERT INTO bindery_holder (space, channel, listener) VALUES (\(space.bytes), \(channel), \(listener))
            ON CONFLICT DO NOTHING
            """,
            logger: logger
        ).hasRow()
        try await waitForWriters(in: space)
    }

    /// Releases `space`: other nodes stop notifying this node's channel of its writes.
    func release(_ space: SessionTokenHash) async throws {
        held.withLock { _ = $0.remove(space) }
        _ = try await client.query(
            "DELETE FROM bindery_holder WHERE space = \(space.bytes) AND channel = \(channel)", logger: logger
        ).hasRow()
    }

    /// Once the LISTEN connection listens (first or again): deletes the rows of listeners that
    /// are gone, then puts back this node's rows that are missing (deleted while it was away),
    /// waiting for the writers in flight in each of those spaces as `hold` does.
    func restore() async throws {
        try await deleteDeadListenersRows()
        let spaces = held.withLock { $0 }
        guard !spaces.isEmpty else { return }
        let rows = try await client.query(
            """
            INSERT INTO bindery_holder (space, channel, listener)
            SELECT space, \(channel), \(listener) FROM unnest(\(spaces.map { ByteBuffer(bytes: $0.bytes) })::bytea[]) AS space
            ON CONFLICT DO NOTHING RETURNING space
            """,
            logger: logger
        )
        var inserted: [SessionTokenHash] = []
        for try await space in rows.decode(Data.self) {
            if let hash = SessionTokenHash(bytes: space) { inserted.append(hash) }
        }
        for space in inserted {
            try await waitForWriters(in: space)
        }
    }

    /// Deletes the rows whose LISTEN connection is no longer connected to this database, and
    /// those of an earlier instance of this node (its listener name on another channel: node ids
    /// are random per process, so a live namesake is not expected).
    func deleteDeadListenersRows() async throws {
        _ = try await client.query(
            """
            DELETE FROM bindery_holder
            WHERE listener NOT IN (
                SELECT application_name FROM pg_stat_activity
                WHERE datname = current_database() AND application_name IS NOT NULL
            ) OR (listener = \(listener) AND channel <> \(channel))
            """,
            logger: logger
        ).hasRow()
    }

    /// Takes and drops `FOR UPDATE` on the session row of `space` in a transaction of its own
    /// (one statement): returns once every writer holding `FOR KEY SHARE` on it has committed, and
    /// a transaction creating it too (`bindery_wait_for_writers`).
    private func waitForWriters(in space: SessionTokenHash) async throws {
        _ = try await client.query("SELECT bindery_wait_for_writers(\(space.bytes))", logger: logger).hasRow()
    }
}
