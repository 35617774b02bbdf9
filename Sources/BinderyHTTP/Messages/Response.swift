import HTTPTypes

/// The body of a `Response`: fixed bytes, or a push stream (Server-Sent Events).
public enum ResponseBody: Sendable {
    /// A complete body, sent with a Content-Length.
    case bytes([UInt8])
    /// A body of unknown length, written over time (chunked on HTTP/1.1).
    case stream(ResponseStream)
}

/// One HTTP response: status, header fields and body.
public struct Response: Sendable {
    /// The response status.
    public var status: HTTPResponse.Status
    /// The response header fields (`Content-Length` is computed by the server and ignored here).
    public var headers: HTTPFields
    /// The response body.
    public var body: ResponseBody
    /// Extra metadata merged into the server's per-request log line (for example "session.id").
    public var logMetadata: [String: String]
    /// The route pattern that answered, named in the log line and the metrics as `http.route`
    /// (it wins over a `logMetadata["http.route"]`). The `Router` sets it unless the responder
    /// named a finer one; nil: "unmatched".
    public var route: String?

    /// Creates a response.
    public init(
        status: HTTPResponse.Status = .ok,
        headers: HTTPFields = [:],
        body: ResponseBody = .bytes([]),
        logMetadata: [String: String] = [:],
        route: String? = nil
    ) {
        self.status = status
        self.headers = headers
        self.body = body
        self.logMetadata = logMetadata
        self.route = route
    }

    /// An `application/json` response carrying already-encoded bytes.
    public static func json(
        _ bytes: [UInt8], status: HTTPResponse.Status = .ok, headers: HTTPFields = [:]
    ) -> Response {
        var fields = headers
        if fields[.contentType] == nil {
            fields[.contentType] = "application/json"
        }
        return Response(status: status, headers: fields, body: .bytes(bytes))
    }

    /// A `text/plain; charset=utf-8` response.
    public static func text(
        _ text: String, status: HTTPResponse.Status = .ok, headers: HTTPFields = [:]
    ) -> Response {
        var fields = headers
        if fields[.contentType] == nil {
            fields[.contentType] = "text/plain; charset=utf-8"
        }
        return Response(status: status, headers: fields, body: .bytes(Array(text.utf8)))
    }

    /// A `text/event-stream` response whose body is the given stream.
    public static func eventStream(_ stream: ResponseStream, headers: HTTPFields = [:]) -> Response {
        var fields = headers
        fields[.contentType] = "text/event-stream"
        if fields[.cacheControl] == nil {
            fields[.cacheControl] = "no-cache"
        }
        return Response(status: .ok, headers: fields, body: .stream(stream))
    }
}
