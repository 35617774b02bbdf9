/// A request the server has finished with, as told to the server's observer (metrics).
package struct CompletedRequest: Sendable {
    /// The request method, e.g. "GET".
    package let method: String
    /// The route pattern that answered (`http.route`), or "unmatched".
    package let route: String
    /// The response status code.
    package let status: Int
    /// From the first byte of the request to the end of the response (whole stream for SSE).
    package let duration: Duration
}
