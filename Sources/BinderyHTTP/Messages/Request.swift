import HTTPTypes

/// One HTTP request as handed to a responder: method, path, query, headers and the whole body.
public struct Request: Sendable {
    /// The request method.
    public var method: HTTPRequest.Method
    /// The percent-decoded path, without the query.
    public var path: String
    /// The path exactly as the client sent it (still percent-encoded), without the query.
    public var rawPath: String
    /// Query arguments, percent-decoded; for a repeated key the last value wins.
    public var query: [String: String]
    /// The request header fields.
    public var headers: HTTPFields
    /// The request body (empty when none was sent).
    public var body: [UInt8]
    /// The client's numeric IP address, when known.
    public var remoteAddress: String?
    /// Path parameters captured by the `Router` (`{name}` and `{rest...}`).
    public var parameters: [String: String] {
        get { captures.dictionary }
        set { captures = RouteCaptures(newValue) }
    }
    /// The captures behind ``parameters``, without a dictionary for a single one.
    var captures: RouteCaptures
    /// When the server started reading the request (its first byte): where `Server-Timing`,
    /// the latency metrics and a request's span start.
    package var receivedAt: ContinuousClock.Instant

    /// Creates a request; the server builds these, tests may too.
    package init(
        method: HTTPRequest.Method,
        path: String,
        rawPath: String? = nil,
        query: [String: String] = [:],
        headers: HTTPFields = [:],
        body: [UInt8] = [],
        remoteAddress: String? = nil,
        parameters: [String: String] = [:],
        receivedAt: ContinuousClock.Instant = .now
    ) {
        self.method = method
        self.path = path
        self.rawPath = rawPath ?? path
        self.query = query
        self.headers = headers
        self.body = body
        self.remoteAddress = remoteAddress
        captures = RouteCaptures(parameters)
        self.receivedAt = receivedAt
    }

    /// The path parameter `name` captured by the `Router`, read without building ``parameters``.
    public func parameter(_ name: String) -> String? {
        captures[name]
    }
}
