import BinderyHTTP

/// `GET /metrics`: Prometheus exposition of requests, sessions, streams, commands and upstream calls.
struct MetricsRoute: HTTPResponder {
    let metrics: BinderyMetrics
    let sessions: SessionStore
    let streams: EventStreams

    func respondImmediately(to request: Request) -> Response? {
        let text = metrics.exposition(liveSessions: sessions.count, openStreams: streams.count)
        return Response(
            status: .ok,
            headers: [.contentType: "text/plain; version=0.0.4; charset=utf-8", .cacheControl: "no-store"],
            body: .bytes(text)
        )
    }

    func respond(to request: Request) async throws -> Response {
        respondImmediately(to: request) ?? Response(status: .internalServerError)
    }
}
