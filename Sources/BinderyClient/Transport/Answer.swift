import BinderyRuntime
import Foundation

/// A server's answer to one request: status, headers (names lowercased) and body.
struct Answer: Sendable {
    let status: Int
    let headers: [String: String]
    let body: Data

    /// The body as JSON, if it is JSON.
    var json: JSONValue? { try? JSONValue(parsing: [UInt8](body)) }

    /// Whether the status is 2xx.
    var succeeded: Bool { (200..<300).contains(status) }

    /// The answer as a problem: the RFC 9457 document the server sent, else one made of the status.
    var problem: RemoteProblem { RemoteProblem(status: status, document: json) }

    /// Seconds from a `Retry-After: N` header.
    var retryAfter: Duration? { headers["retry-after"].flatMap(Int.init).map { .seconds($0) } }

    /// Whether nobody may have answered it but a proxy or a server going away (502, 503, 504 that
    /// are not a command's own outcome): the request may or may not have been applied, so it is
    /// sent again with the same `Idempotency-Key`.
    var isUnanswered: Bool { [502, 503, 504].contains(status) && problem.command == nil }

    /// Whether a request with the same `Idempotency-Key` is still running (409 with Retry-After).
    var isStillRunning: Bool { status == 409 && retryAfter != nil }
}
