/// A failed upstream call, shaped like the seed's `NSError` (a domain-like message and a code).
///
/// The codes follow HTTP where one fits: 500 "Bad Network" (seed 000's injected failure),
/// 502 "Error JSON Data" (a body that does not decode as `{"data": ...}`), 504 "Timeout",
/// 404 "Not Found" (an unknown photo id) and 499 "Cancelled" (the caller stopped waiting).
public struct UpstreamError: Error, Sendable, Equatable, Hashable, CustomStringConvertible {
    /// The endpoint that failed.
    public var endpoint: UpstreamEndpoint
    /// The failure's code (500, 502, 504, 404 or 499).
    public var code: Int
    /// The failure's message, as the seed's error domain (`"Bad Network"`).
    public var message: String

    /// Creates an error.
    public init(endpoint: UpstreamEndpoint, code: Int, message: String) {
        self.endpoint = endpoint
        self.code = code
        self.message = message
    }

    /// The injected network failure of seed 000: code 500, "Bad Network".
    public static func badNetwork(_ endpoint: UpstreamEndpoint) -> UpstreamError {
        UpstreamError(endpoint: endpoint, code: 500, message: "Bad Network")
    }

    /// A body that is not `{"data": ...}` with the expected models: code 502, "Error JSON Data".
    public static func badJSON(_ endpoint: UpstreamEndpoint) -> UpstreamError {
        UpstreamError(endpoint: endpoint, code: 502, message: "Error JSON Data")
    }

    /// An answer that never came within the endpoint's `timeoutMs`: code 504, "Timeout".
    public static func timeout(_ endpoint: UpstreamEndpoint) -> UpstreamError {
        UpstreamError(endpoint: endpoint, code: 504, message: "Timeout")
    }

    /// An unknown resource, such as a photo id the upstream does not have: code 404, "Not Found".
    public static func notFound(_ endpoint: UpstreamEndpoint) -> UpstreamError {
        UpstreamError(endpoint: endpoint, code: 404, message: "Not Found")
    }

    /// The calling task was cancelled while the call was waiting: code 499, "Cancelled".
    public static func cancelled(_ endpoint: UpstreamEndpoint) -> UpstreamError {
        UpstreamError(endpoint: endpoint, code: 499, message: "Cancelled")
    }

    /// Whether this error only says that the caller cancelled the call.
    public var isCancellation: Bool { code == 499 }

    /// `"travel: 500 Bad Network"`.
    public var description: String { "\(endpoint.rawValue): \(code) \(message)" }
}
