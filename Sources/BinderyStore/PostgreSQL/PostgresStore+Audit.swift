import Foundation
import PostgresNIO

/// The deploy check's reads and moves (``StoredStateAudit``) on the shared database. Several
/// nodes may start at once: moves are single statements guarded by the version they saw.
extension PostgresStore: StoredStateAudit {
    package func storedShapes() async throws -> [StoredShapeGroup] {
        try await read { client in
            let rows = try await client.query(
                """
                SELECT s.holds_records, v.path, v.shape, count(*) FROM bindery_view_model v
                JOIN bindery_session s ON s.token_hash = v.session
                GROUP BY s.holds_records, v.path, v.shape ORDER BY v.path
                """,
                logger: logger
            )
            var groups: [StoredShapeGroup] = []
            for try await (isRecord, path, shape, count) in rows.decode((Bool, String, String?, Int).self) {
                groups.append(StoredShapeGroup(isRecord: isRecord, path: path, shape: shape, count: count))
            }
            return groups
        }
    }

    package func storedStates(in group: StoredShapeGroup) async throws -> [ViewModelRecord] {
        try await read { client in
            let rows = try await client.query(
                """
                SELECT v.session, v.version, v.state, v.shape FROM bindery_view_model v
                JOIN bindery_session s ON s.token_hash = v.session
                WHERE v.path = \(group.path) AND v.shape IS NOT DISTINCT FROM \(group.shape)
                    AND s.holds_records = \(group.isRecord)
                """,
                logger: logger
            )
            var records: [ViewModelRecord] = []
            for try await (session, version, state, shape) in rows.decode((Data, Int, Data, String?).self) {
                guard let session = SessionTokenHash(bytes: session) else { continue }
                records.append(
                    ViewModelRecord(key: ViewModelKey(session: session, path: group.path), version: version, state: state, command: nil, shape: shape)
                )
            }
            return records
        }
    }

    @discardableResult
    package func setAside(_ key: ViewModelKey, version: Int, reason: String, at time: Date) async throws -> Bool {
        let logger = logger
        return try await committer.submit { connection in
            try await connection.query(
                """
                WITH moved AS (
                    DELETE FROM bindery_view_model
                    WHERE session = \(key.session.bytes) AND path = \(key.path) AND version = \(version)
                    RETURNING session, path, version, state, shape
                )
                INSERT INTO bindery_set_aside (session, path, version, state, shape, reason, set_aside_at)
                SELECT session, path, version, state, shape, \(reason), \(time.storeValue) FROM moved
                ON CONFLICT (session, path) DO UPDATE SET version = excluded.version, state = excluded.state,
                    shape = excluded.shape, reason = excluded.reason, set_aside_at = excluded.set_aside_at
                RETURNING 1
                """,
                logger: logger
            ).hasRow()
        }
    }

    package func setAsideStates() async throws -> [SetAsideState] {
        try await read { client in
            let rows = try await client.query(
                """
                SELECT a.session, a.path, a.version, a.state, a.shape, a.reason, a.set_aside_at, s.holds_records
                FROM bindery_set_aside a JOIN bindery_session s ON s.token_hash = a.session ORDER BY a.set_aside_at
                """,
                logger: logger
            )
            var states: [SetAsideState] = []
            for try await (session, path, version, state, shape, reason, at, isRecord) in rows.decode(
                (Data, String, Int, Data, String?, String, Double, Bool).self
            ) {
                guard let session = SessionTokenHash(bytes: session) else { continue }
                let record = ViewModelRecord(
                    key: ViewModelKey(session: session, path: path), version: version, state: state, command: nil, shape: shape)
                states.append(SetAsideState(record: record, isRecord: isRecord, reason: reason, at: Date(storeValue: at)))
            }
            return states
        }
    }

    package func putBack(_ key: ViewModelKey) async throws -> Bool {
        let logger = logger
        return try await committer.submit { connection in
            let restored = try await connection.query(
                """
                INSERT INTO bindery_view_model (session, path, version, state, shape, command_interrupted, log_floor)
                SELECT session, path, version, state, shape, false, version FROM bindery_set_aside
                WHERE session = \(key.session.bytes) AND path = \(key.path)
                ON CONFLICT (session, path) DO NOTHING RETURNING 1
                """,
                logger: logger
            ).hasRow()
            guard restored else { return false }
            try await connection.query(
                "DELETE FROM bindery_set_aside WHERE session = \(key.session.bytes) AND path = \(key.path)", logger: logger
            )
            return true
        }
    }
}
