import Foundation

/// The idempotency key a request holds while it runs (`Idempotency-Key`), as the binding layer
/// claims it. What the request does carries the claim to the store, which records it in the same
/// transaction: the versions its own flushes render, the shared records it (or its command's work)
/// commits, its deferred command's end once the work succeeded. The key is taken exactly when
/// something the request asked for is durable (see `CommitPipeline+Claims.swift`).
///
/// Set for the request's task with `RequestClaim.$current.withValue(claim) { … }`; the tasks it
/// starts inherit it (its command's work, a shared record's commit), and so do the flushes their
/// changes schedule in any session, which claim nothing.
package struct RequestClaim: Sendable, Hashable {
    /// The session's identity in the store (its token hash).
    package let session: Data
    /// The client's key.
    package let key: String
    /// A digest of the request: a retry must be the same request.
    package let fingerprint: Data
    /// This execution's own id.
    package let attempt: Data
    /// When the request was received.
    package let at: Date
    /// Claims of the key older than this have expired.
    package let expiredBefore: Date
    /// Whether the request runs a command: a version that only shows a deferred command running
    /// (its start) is bookkeeping, not what was asked for, and claims nothing; the work's own
    /// writes do, and its end when the work succeeded. A node that dies before the work wrote
    /// anything leaves the key free.
    package let isCommand: Bool

    /// A claim.
    package init(
        session: Data, key: String, fingerprint: Data, attempt: Data, at: Date, expiredBefore: Date, isCommand: Bool
    ) {
        self.session = session
        self.key = key
        self.fingerprint = fingerprint
        self.attempt = attempt
        self.at = at
        self.expiredBefore = expiredBefore
        self.isCommand = isCommand
    }

    /// The claim of the request this task runs for, if it has one.
    @TaskLocal package static var current: RequestClaim?
}
