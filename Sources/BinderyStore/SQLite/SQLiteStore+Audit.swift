import Foundation
import GRDB

/// The deploy check's reads and moves (``StoredStateAudit``) on the SQLite file.
extension SQLiteStore: StoredStateAudit {
    package func storedShapes() async throws -> [StoredShapeGroup] {
        try await read { db in
            try Row.fetchAll(
                db,
                sql: """
                    SELECT s.holds_records, v.path, v.shape, count(*) FROM view_model v
                    JOIN session s ON s.token_hash = v.session
                    GROUP BY s.holds_records, v.path, v.shape ORDER BY v.path
                    """
            ).map { StoredShapeGroup(isRecord: $0[0], path: $0[1], shape: $0[2], count: $0[3]) }
        }
    }

    package func storedStates(in group: StoredShapeGroup) async throws -> [ViewModelRecord] {
        try await read { db in
            try Row.fetchAll(
                db,
                sql: """
                    SELECT v.session, v.version, v.state, v.shape FROM view_model v
                    JOIN session s ON s.token_hash = v.session
                    WHERE v.path = ? AND v.shape IS ? AND s.holds_records = ?
                    """,
                arguments: [group.path, group.shape, group.isRecord]
            ).compactMap { row in
                SessionTokenHash(bytes: row[0]).map {
                    ViewModelRecord(key: ViewModelKey(session: $0, path: group.path), version: row[1], state: row[2], command: nil, shape: row[3])
                }
            }
        }
    }

    @discardableResult
    package func setAside(_ key: ViewModelKey, version: Int, reason: String, at time: Date) async throws -> Bool {
        try await committer.submit { db in
            try db.execute(
                sql: """
                    INSERT OR REPLACE INTO set_aside (session, path, version, state, shape, reason, set_aside_at)
                    SELECT session, path, version, state, shape, ?, ? FROM view_model
                    WHERE session = ? AND path = ? AND version = ?
                    """,
                arguments: [reason, time.storeValue, key.session.bytes, key.path, version]
            )
            guard db.changesCount == 1 else { return false }
            try db.execute(
                sql: "DELETE FROM view_model WHERE session = ? AND path = ?", arguments: [key.session.bytes, key.path]
            )
            return true
        }
    }

    package func setAsideStates() async throws -> [SetAsideState] {
        try await read { db in
            try Row.fetchAll(
                db,
                sql: """
                    SELECT a.session, a.path, a.version, a.state, a.shape, a.reason, a.set_aside_at, s.holds_records
                    FROM set_aside a JOIN session s ON s.token_hash = a.session ORDER BY a.set_aside_at
                    """
            ).compactMap { row in
                SessionTokenHash(bytes: row[0]).map {
                    SetAsideState(
                        record: ViewModelRecord(
                            key: ViewModelKey(session: $0, path: row[1]), version: row[2], state: row[3], command: nil, shape: row[4]
                        ),
                        isRecord: row[7], reason: row[5], at: Date(storeValue: row[6])
                    )
                }
            }
        }
    }

    package func putBack(_ key: ViewModelKey) async throws -> Bool {
        try await committer.submit { db in
            try db.execute(
                sql: """
                    INSERT INTO view_model (session, path, version, state, shape, command_interrupted, log_floor)
                    SELECT session, path, version, state, shape, 0, version FROM set_aside WHERE session = ? AND path = ?
                    ON CONFLICT (session, path) DO NOTHING
                    """,
                arguments: [key.session.bytes, key.path]
            )
            guard db.changesCount == 1 else { return false }
            try db.execute(sql: "DELETE FROM set_aside WHERE session = ? AND path = ?", arguments: [key.session.bytes, key.path])
            return true
        }
    }
}
