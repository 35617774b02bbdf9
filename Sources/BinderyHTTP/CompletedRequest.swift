/// A request the server has finished with, as told to the server's observer (metrics).
public struct CompletedRequest: Sendable {
    /// The request method, e.g. "GET".
    public let method: String
    /// The route pattern that answered (`http.route`), or "unmatched".
    public let route: String
    /// The response status code.
    public let status: Int
    /// From the first byte of the request to the end of the response (whole stream for SSE).
    public let duration: Duration
}
