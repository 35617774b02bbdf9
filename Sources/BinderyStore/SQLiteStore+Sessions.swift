import Foundation
import GRDB

/// Sessions: create, look up, touch, delete, purge and evict.
extension SQLiteStore {
    /// Creates a session.
    package func createSession(_ tokenHash: SessionTokenHash, at time: Date) async throws -> StoredSession {
        try await committer.submit { db in
            guard try Self.fetchSession(db, tokenHash) == nil else { throw StoreError.sessionExists(tokenHash) }
            try db.execute(
                sql: "INSERT INTO session (token_hash, created_at, last_used_at) VALUES (?, ?, ?)",
                arguments: [tokenHash.bytes, time.storeValue, time.storeValue]
            )
            return StoredSession(tokenHash: tokenHash, createdAt: time, lastUsedAt: time)
        }
    }

    /// The session with this token hash, or `nil`.
    package func session(_ tokenHash: SessionTokenHash) async throws -> StoredSession? {
        try await read { db in try Self.fetchSession(db, tokenHash) }
    }

    /// Records a use of the session.
    package func touchSession(_ tokenHash: SessionTokenHash, at time: Date) async throws {
        try await committer.submit { db in
            try db.execute(
                sql: "UPDATE session SET last_used_at = MAX(last_used_at, ?) WHERE token_hash = ?",
                arguments: [time.storeValue, tokenHash.bytes]
            )
            guard db.changesCount > 0 else { throw StoreError.sessionNotFound(tokenHash) }
        }
    }

    /// Deletes a session and everything of it.
    @discardableResult
    package func deleteSession(_ tokenHash: SessionTokenHash) async throws -> Bool {
        try await committer.submit { db in
            try db.execute(sql: "DELETE FROM session WHERE token_hash = ?", arguments: [tokenHash.bytes])
            return db.changesCount > 0
        }
    }

    /// Deletes every session last used before `cutoff`.
    package func purgeSessions(idleSince cutoff: Date) async throws -> [SessionTokenHash] {
        try await committer.submit { db in
            try Self.delete(db, Self.sessionsByUse(db, idleSince: cutoff))
        }
    }

    /// Keeps the `maximum` most recently used sessions.
    package func evictSessions(beyond maximum: Int, sparing: Set<SessionTokenHash>) async throws -> [SessionTokenHash] {
        try await committer.submit { db in
            let count = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM session") ?? 0
            let excess = count - max(0, maximum)
            guard excess > 0 else { return [] }
            let doomed = try Self.sessionsByUse(db, limit: excess + sparing.count).filter { !sparing.contains($0) }
            return try Self.delete(db, Array(doomed.prefix(excess)))
        }
    }

    static func fetchSession(_ db: Database, _ tokenHash: SessionTokenHash) throws -> StoredSession? {
        let row = try Row.fetchOne(
            db, sql: "SELECT created_at, last_used_at FROM session WHERE token_hash = ?", arguments: [tokenHash.bytes]
        )
        return row.map {
            StoredSession(
                tokenHash: tokenHash, createdAt: Date(storeValue: $0[0]), lastUsedAt: Date(storeValue: $0[1])
            )
        }
    }

    /// Session hashes, least recently used first: those idle since `cutoff`, or the first `limit`.
    private static func sessionsByUse(
        _ db: Database, idleSince cutoff: Date? = nil, limit: Int? = nil
    ) throws -> [SessionTokenHash] {
        var sql = "SELECT token_hash FROM session"
        var arguments = StatementArguments()
        if let cutoff {
            sql += " WHERE last_used_at < ?"
            arguments += [cutoff.storeValue]
        }
        sql += " ORDER BY last_used_at, created_at, token_hash"
        if let limit {
            sql += " LIMIT ?"
            arguments += [limit]
        }
        return try Data.fetchAll(db, sql: sql, arguments: arguments).compactMap(SessionTokenHash.init(bytes:))
    }

    private static func delete(_ db: Database, _ hashes: [SessionTokenHash]) throws -> [SessionTokenHash] {
        let statement = try db.cachedStatement(sql: "DELETE FROM session WHERE token_hash = ?")
        for hash in hashes {
            try statement.execute(arguments: [hash.bytes])
        }
        return hashes
    }
}
