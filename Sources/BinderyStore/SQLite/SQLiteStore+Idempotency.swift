import Foundation
import GRDB

/// Idempotency keys: claimed inside the writer's transaction with the writes of the request that
/// holds them, answered after it, read by its retries.
extension SQLiteStore {
    /// Records `claim` in the caller's transaction; refused with ``StoreError/keyClaimed(key:)``
    /// when another execution holds the key (an expired claim is replaced).
    static func record(_ claim: IdempotencyClaim, in db: Database) throws {
        do {
            try db.cachedStatement(
                sql: """
                    INSERT INTO idempotency_key (session, key, fingerprint, attempt, claimed_at) VALUES (?, ?, ?, ?, ?)
                    ON CONFLICT (session, key) DO UPDATE SET
                        fingerprint = excluded.fingerprint, attempt = excluded.attempt, claimed_at = excluded.claimed_at,
                        status = NULL, headers = NULL, body = NULL
                    WHERE idempotency_key.claimed_at < ?
                    """
            ).execute(arguments: [
                claim.session.bytes, claim.key, claim.fingerprint, claim.attempt, claim.at.storeValue, claim.expiredBefore.storeValue,
            ])
        } catch let error as DatabaseError where error.extendedResultCode == .SQLITE_CONSTRAINT_FOREIGNKEY {
            throw StoreError.sessionNotFound(claim.session)
        }
        guard db.changesCount == 0 else { return }
        let holder = try Data.fetchOne(
            try db.cachedStatement(sql: "SELECT attempt FROM idempotency_key WHERE session = ? AND key = ?"),
            arguments: [claim.session.bytes, claim.key]
        )
        guard holder == claim.attempt else { throw StoreError.keyClaimed(key: claim.key) }
    }

    /// The record of a key claimed at `notBefore` or later.
    package func idempotencyRecord(session: SessionTokenHash, key: String, notBefore: Date) async throws -> IdempotencyRecord? {
        try await read { db in
            let row = try Row.fetchOne(
                db,
                sql: """
                    SELECT fingerprint, attempt, claimed_at, status, headers, body FROM idempotency_key
                    WHERE session = ? AND key = ? AND claimed_at >= ?
                    """,
                arguments: [session.bytes, key, notBefore.storeValue]
            )
            return row.map { row in
                let status: Int? = row["status"]
                return IdempotencyRecord(
                    fingerprint: row["fingerprint"], attempt: row["attempt"], claimedAt: Date(storeValue: row["claimed_at"]),
                    answer: status.map { StoredAnswer(status: $0, encodedHeaders: row["headers"] ?? Data(), body: row["body"] ?? Data()) }
                )
            }
        }
    }

    /// Stores the answer on the claim (made now if no write made it).
    package func recordAnswer(_ answer: StoredAnswer, for claim: IdempotencyClaim) async throws {
        try await committer.submit { db in
            do {
                try db.cachedStatement(
                    sql: """
                        INSERT INTO idempotency_key (session, key, fingerprint, attempt, claimed_at, status, headers, body)
                        VALUES (?, ?, ?, ?, ?, ?, ?, ?)
                        ON CONFLICT (session, key) DO UPDATE SET
                            status = excluded.status, headers = excluded.headers, body = excluded.body
                        WHERE idempotency_key.attempt = excluded.attempt
                        """
                ).execute(arguments: [
                    claim.session.bytes, claim.key, claim.fingerprint, claim.attempt, claim.at.storeValue,
                    answer.status, answer.encodedHeaders, answer.body,
                ])
            } catch let error as DatabaseError where error.extendedResultCode == .SQLITE_CONSTRAINT_FOREIGNKEY {
                throw StoreError.sessionNotFound(claim.session)
            }
        }
    }

    /// Forgets the keys claimed before `cutoff`.
    @discardableResult
    package func purgeIdempotencyKeys(claimedBefore cutoff: Date) async throws -> Int {
        try await committer.submit { db in
            try db.execute(sql: "DELETE FROM idempotency_key WHERE claimed_at < ?", arguments: [cutoff.storeValue])
            return db.changesCount
        }
    }
}
