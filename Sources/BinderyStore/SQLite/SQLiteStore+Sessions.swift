import Foundation
import GRDB

/// Sessions: create, look up, touch, delete, purge and evict.
extension SQLiteStore {
    /// Creates a session.
    package func createSession(_ tokenHash: SessionTokenHash, at time: Date, kind: SessionKind) async throws -> StoredSession {
        try await committer.submit { db in
            let taken =
                try Bool.fetchOne(
                    db, sql: "SELECT EXISTS (SELECT 1 FROM session WHERE token_hash = ?1 OR credential = ?1)",
                    arguments: [tokenHash.bytes]
                ) ?? false
            guard !taken else { throw StoreError.sessionExists(tokenHash) }
            try db.execute(
                sql: """
                    INSERT INTO session (token_hash, credential, created_at, last_used_at, holds_records)
                    VALUES (?1, ?1, ?2, ?2, ?3)
                    """,
                arguments: [tokenHash.bytes, time.storeValue, kind == .records]
            )
            return StoredSession(tokenHash: tokenHash, createdAt: time, lastUsedAt: time)
        }
    }

    /// The session whose current credential is `credential`, or `nil`.
    package func session(_ credential: SessionTokenHash) async throws -> StoredSession? {
        try await read { db in try Self.fetchSession(db, credential: credential) }
    }

    /// Signs the session in and replaces its credential, if it is still `old`.
    package func signIn(
        _ key: SessionTokenHash, replacing old: SessionTokenHash, with new: SessionTokenHash, as user: StoredUser
    ) async throws {
        try await committer.submit { db in
            try db.execute(
                sql: "UPDATE session SET credential = ?, user_id = ?, user_profile = ? WHERE token_hash = ? AND credential = ?",
                arguments: [new.bytes, user.id, user.profile, key.bytes, old.bytes]
            )
            guard db.changesCount > 0 else { throw StoreError.sessionNotFound(key) }
        }
    }

    /// Deletes every session signed in as the user `id`.
    package func deleteSessions(ofUser id: String) async throws -> [SessionTokenHash] {
        try await committer.submit { db in
            let keys = try Data.fetchAll(db, sql: "SELECT token_hash FROM session WHERE user_id = ?", arguments: [id])
                .compactMap(SessionTokenHash.init(bytes:))
            return try Self.delete(db, keys)
        }
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
            let count = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM session WHERE NOT holds_records") ?? 0
            let excess = count - max(0, maximum)
            guard excess > 0 else { return [] }
            let doomed = try Self.sessionsByUse(db, limit: excess + sparing.count).filter { !sparing.contains($0) }
            return try Self.delete(db, Array(doomed.prefix(excess)))
        }
    }

    static func fetchSession(_ db: Database, credential: SessionTokenHash) throws -> StoredSession? {
        let row = try Row.fetchOne(
            db, sql: "SELECT token_hash, created_at, last_used_at, user_id, user_profile FROM session WHERE credential = ?",
            arguments: [credential.bytes]
        )
        return row.flatMap { row -> StoredSession? in
            guard let key = SessionTokenHash(bytes: row[0]) else { return nil }
            let user = (row[3] as String?).map { StoredUser(id: $0, profile: row[4] ?? Data()) }
            return StoredSession(
                tokenHash: key, createdAt: Date(storeValue: row[1]), lastUsedAt: Date(storeValue: row[2]), user: user
            )
        }
    }

    /// Session hashes, least recently used first: those idle since `cutoff`, or the first `limit`.
    private static func sessionsByUse(
        _ db: Database, idleSince cutoff: Date? = nil, limit: Int? = nil
    ) throws -> [SessionTokenHash] {
        var sql = "SELECT token_hash FROM session WHERE NOT holds_records"
        var arguments = StatementArguments()
        if let cutoff {
            sql += " AND last_used_at < ?"
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
