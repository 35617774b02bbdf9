import Foundation

/// A request's claim on its `Idempotency-Key`: recorded in the same transaction as the first
/// write the request makes, so a key is taken exactly when something it asked for is durable.
///
/// A claim is scoped to a session. A write whose claim finds the key taken by another attempt is
/// refused with ``StoreError/keyClaimed(key:)`` (two nodes running one retried request at once:
/// the one that commits first wins, the other applies nothing).
package struct IdempotencyClaim: Sendable, Hashable {
    /// The session whose key it is (not the written view model's: a shared record's write carries
    /// the claim of the session that asked for it).
    package var session: SessionTokenHash
    /// The client's key.
    package var key: String
    /// A digest of the request (method, path, body): a retry must be the same request.
    package var fingerprint: Data
    /// This execution's own id, telling it apart from a concurrent one with the same key.
    package var attempt: Data
    /// When the request was received.
    package var at: Date
    /// Claims of the key made before this have expired: this one replaces them.
    package var expiredBefore: Date

    /// A claim.
    package init(session: SessionTokenHash, key: String, fingerprint: Data, attempt: Data, at: Date, expiredBefore: Date) {
        self.session = session
        self.key = key
        self.fingerprint = fingerprint
        self.attempt = attempt
        self.at = at
        self.expiredBefore = expiredBefore
    }
}

/// The answer given to a request with an idempotency key, given again to its retries.
package struct StoredAnswer: Sendable, Hashable {
    /// The HTTP status code.
    package var status: Int
    /// The header fields that matter to a client (content type, entity tag…), in order.
    package var headers: [[String]]
    /// The body.
    package var body: Data

    /// An answer.
    package init(status: Int, headers: [[String]], body: Data) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// The header fields as stored: a JSON array of `[name, value]` pairs.
    var encodedHeaders: Data {
        (try? JSONEncoder().encode(headers)) ?? Data("[]".utf8)
    }

    /// An answer read back from the store.
    init(status: Int, encodedHeaders: Data, body: Data) {
        self.init(status: status, headers: (try? JSONDecoder().decode([[String]].self, from: encodedHeaders)) ?? [], body: body)
    }
}

/// What the store holds of a key: who claimed it and, once the request ended, its answer.
package struct IdempotencyRecord: Sendable, Hashable {
    /// The claimed request's digest.
    package var fingerprint: Data
    /// The claiming execution.
    package var attempt: Data
    /// When the claiming request was received.
    package var claimedAt: Date
    /// Its answer; nil while it runs, or when its node stopped between its write and its answer.
    package var answer: StoredAnswer?

    /// A record.
    package init(fingerprint: Data, attempt: Data, claimedAt: Date, answer: StoredAnswer?) {
        self.fingerprint = fingerprint
        self.attempt = attempt
        self.claimedAt = claimedAt
        self.answer = answer
    }
}
