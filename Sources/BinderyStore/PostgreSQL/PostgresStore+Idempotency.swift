import Foundation
import Logging
import PostgresNIO

/// Idempotency keys: claimed inside the writer's transaction with the writes of the request that
/// holds them (by `bindery_apply_write`, see PostgresStore+WriteFunctions.swift), answered after
/// it, read by its retries on any node. A concurrent claim of the same key by another node waits
/// for that node's transaction, then sees its row; an expired claim is replaced.
extension PostgresStore {
    /// The record of a key claimed at `notBefore` or later.
    package func idempotencyRecord(session: SessionTokenHash, key: String, notBefore: Date) async throws -> IdempotencyRecord? {
        try await read { client in
            let rows = try await client.query(
                """
                SELECT fingerprint, attempt, claimed_at, status, headers, body FROM bindery_idempotency_key
                WHERE session = \(session.bytes) AND key = \(key) AND claimed_at >= \(notBefore.storeValue)
                """,
                logger: logger
            )
            for try await (fingerprint, attempt, claimedAt, status, headers, body) in rows.decode(
                (Data, Data, Double, Int?, Data?, Data?).self
            ) {
                return IdempotencyRecord(
                    fingerprint: fingerprint, attempt: attempt, claimedAt: Date(storeValue: claimedAt),
                    answer: status.map { StoredAnswer(status: $0, encodedHeaders: headers ?? Data(), body: body ?? Data()) }
                )
            }
            return nil
        }
    }

    /// Stores the answer on the claim (made now if no write made it).
    package func recordAnswer(_ answer: StoredAnswer, for claim: IdempotencyClaim) async throws {
        let logger = self.logger
        try await committer.submit { connection in
            do {
                try await connection.query(
                    """
                    INSERT INTO bindery_idempotency_key AS k (session, key, fingerprint, attempt, claimed_at, status, headers, body)
                    VALUES (\(claim.session.bytes), \(claim.key), \(claim.fingerprint), \(claim.attempt), \(claim.at.storeValue),
                        \(answer.status), \(answer.encodedHeaders), \(answer.body))
                    ON CONFLICT (session, key) DO UPDATE SET status = excluded.status, headers = excluded.headers, body = excluded.body
                    WHERE k.attempt = excluded.attempt
                    """,
                    logger: logger
                )
            } catch let error as PSQLError where error.serverInfo?[.sqlState] == "23503" {
                throw StoreError.sessionNotFound(claim.session)
            }
        }
    }

    /// Forgets the keys claimed before `cutoff`.
    @discardableResult
    package func purgeIdempotencyKeys(claimedBefore cutoff: Date) async throws -> Int {
        let logger = self.logger
        return try await committer.submit { connection in
            var count = 0
            let rows = try await connection.query(
                "DELETE FROM bindery_idempotency_key WHERE claimed_at < \(cutoff.storeValue) RETURNING 1", logger: logger
            )
            for try await _ in rows.decode(Int.self) { count += 1 }
            return count
        }
    }
}
