import Foundation
import PostgresNIO

/// Sessions: create, look up, touch, delete, purge and evict.
extension PostgresStore {
    /// Creates a session.
    package func createSession(_ tokenHash: SessionTokenHash, at time: Date, kind: SessionKind) async throws -> StoredSession {
        let logger = self.logger
        return try await committer.submit { connection in
            let rows = try await connection.query(
                """
                INSERT INTO bindery_session (token_hash, credential, created_at, last_used_at, holds_records)
                VALUES (\(tokenHash.bytes), \(tokenHash.bytes), \(time.storeValue), \(time.storeValue), \(kind == .records))
                ON CONFLICT DO NOTHING RETURNING 1
                """,
                logger: logger
            )
            guard try await rows.hasRow() else { throw StoreError.sessionExists(tokenHash) }
            return StoredSession(tokenHash: tokenHash, createdAt: time, lastUsedAt: time)
        }
    }

    /// The session whose current credential is `credential`, or `nil`.
    package func session(_ credential: SessionTokenHash) async throws -> StoredSession? {
        try await read { client in
            let rows = try await client.query(
                """
                SELECT token_hash, created_at, last_used_at, user_id, user_profile FROM bindery_session
                WHERE credential = \(credential.bytes)
                """,
                logger: logger
            )
            for try await (key, createdAt, lastUsedAt, userID, profile) in rows.decode((Data, Double, Double, String?, Data?).self) {
                guard let key = SessionTokenHash(bytes: key) else { return nil }
                return StoredSession(
                    tokenHash: key, createdAt: Date(storeValue: createdAt), lastUsedAt: Date(storeValue: lastUsedAt),
                    user: userID.map { StoredUser(id: $0, profile: profile ?? Data()) }
                )
            }
            return nil
        }
    }

    /// Signs the session in and replaces its credential, if it is still `old`.
    package func signIn(
        _ key: SessionTokenHash, replacing old: SessionTokenHash, with new: SessionTokenHash, as user: StoredUser
    ) async throws {
        let logger = self.logger
        try await committer.submit { connection in
            let updated = try await connection.query(
                """
                UPDATE bindery_session SET credential = \(new.bytes), user_id = \(user.id), user_profile = \(user.profile)
                WHERE token_hash = \(key.bytes) AND credential = \(old.bytes) RETURNING 1
                """,
                logger: logger
            ).hasRow()
            guard updated else { throw StoreError.sessionNotFound(key) }
        }
    }

    /// Deletes every session signed in as the user `id`.
    package func deleteSessions(ofUser id: String) async throws -> [SessionTokenHash] {
        let logger = self.logger
        return try await committer.submit { connection in
            try await Self.deletedSessions(
                connection.query(
                    "DELETE FROM bindery_session WHERE user_id = \(id) RETURNING token_hash, created_at, last_used_at",
                    logger: logger
                )
            )
        }
    }

    /// Records a use of the session.
    package func touchSession(_ tokenHash: SessionTokenHash, at time: Date) async throws {
        let logger = self.logger
        try await committer.submit { connection in
            guard try await Self.touch(tokenHash, at: time, on: connection, logger: logger) else {
                throw StoreError.sessionNotFound(tokenHash)
            }
        }
    }

    /// Deletes a session and everything of it.
    @discardableResult
    package func deleteSession(_ tokenHash: SessionTokenHash) async throws -> Bool {
        let logger = self.logger
        return try await committer.submit { connection in
            try await connection.query(
                "DELETE FROM bindery_session WHERE token_hash = \(tokenHash.bytes) RETURNING 1", logger: logger
            ).hasRow()
        }
    }

    /// Deletes every session last used before `cutoff`.
    package func purgeSessions(idleSince cutoff: Date) async throws -> [SessionTokenHash] {
        let logger = self.logger
        return try await committer.submit { connection in
            try await Self.deletedSessions(
                connection.query(
                    """
                    DELETE FROM bindery_session WHERE last_used_at < \(cutoff.storeValue) AND NOT holds_records
                    RETURNING token_hash, created_at, last_used_at
                    """,
                    logger: logger
                )
            )
        }
    }

    /// Keeps at most `maximum` sessions, deleting the least recently used not in `sparing`.
    package func evictSessions(beyond maximum: Int, sparing: Set<SessionTokenHash>) async throws -> [SessionTokenHash] {
        let logger = self.logger
        return try await committer.submit { connection in
            var count = 0
            for try await total in try await connection.query(
                "SELECT COUNT(*) FROM bindery_session WHERE NOT holds_records", logger: logger
            )
            .decode(Int.self) { count = total }
            let excess = count - max(0, maximum)
            guard excess > 0 else { return [] }
            // The least recently used, with room for the spared ones among them; one delete each
            // (a trim deletes few, and rarely).
            let rows = try await connection.query(
                """
                SELECT token_hash FROM bindery_session WHERE NOT holds_records ORDER BY last_used_at, created_at, token_hash
                LIMIT \(excess + sparing.count)
                """,
                logger: logger
            )
            var doomed: [SessionTokenHash] = []
            for try await hash in rows.decode(Data.self) {
                if let tokenHash = SessionTokenHash(bytes: hash), !sparing.contains(tokenHash) { doomed.append(tokenHash) }
            }
            var deleted: [SessionTokenHash] = []
            for hash in doomed.prefix(excess)
            where try await connection.query(
                "DELETE FROM bindery_session WHERE token_hash = \(hash.bytes) RETURNING 1", logger: logger
            ).hasRow() {
                deleted.append(hash)
            }
            return deleted
        }
    }

    /// Moves a session's last use forward to `time` when that is more than `granularity` seconds
    /// later, unless another transaction is moving it right now; whether the session exists.
    static func touch(
        _ tokenHash: SessionTokenHash, at time: Date, granularity: TimeInterval = 0,
        on connection: PostgresConnection, logger: Logger
    ) async throws -> Bool {
        // A shared lock says the session exists and holds off its deletion until the commit. The
        // last use moves under an exclusive lock taken only if no other transaction holds one
        // (`SKIP LOCKED`): that transaction is moving it to about the same time. A writer then
        // never waits for another writer's session row while holding view-model rows, the cycle
        // behind every deadlock seen between nodes (each cost PostgreSQL's 1 s detection).
        try await connection.query(
            """
            WITH found AS (
                SELECT 1 FROM bindery_session WHERE token_hash = \(tokenHash.bytes) FOR KEY SHARE
            ), moved AS (
                UPDATE bindery_session SET last_used_at = \(time.storeValue)
                WHERE token_hash IN (
                    SELECT token_hash FROM bindery_session
                    WHERE token_hash = \(tokenHash.bytes) AND last_used_at < \(time.storeValue - granularity)
                    FOR NO KEY UPDATE SKIP LOCKED
                ) AND EXISTS (SELECT 1 FROM found)
                RETURNING 1
            )
            SELECT 1 FROM found
            """,
            logger: logger
        ).hasRow()
    }

    /// The hashes of deleted sessions, least recently used first.
    private static func deletedSessions(_ rows: PostgresRowSequence) async throws -> [SessionTokenHash] {
        var sessions: [StoredSession] = []
        for try await (hash, createdAt, lastUsedAt) in rows.decode((Data, Double, Double).self) {
            guard let tokenHash = SessionTokenHash(bytes: hash) else { continue }
            sessions.append(
                StoredSession(
                    tokenHash: tokenHash, createdAt: Date(storeValue: createdAt), lastUsedAt: Date(storeValue: lastUsedAt)
                )
            )
        }
        return sessions.sorted { $0.isLessRecentlyUsed(than: $1) }.map(\.tokenHash)
    }
}

extension PostgresRowSequence {
    /// Whether the result has at least one row; reads the rest so the connection is free again.
    func hasRow() async throws -> Bool {
        var found = false
        for try await _ in self {
            found = true
        }
        return found
    }
}
