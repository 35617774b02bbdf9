import BinderyHTTP
import BinderyRuntime

/// `GET /metrics`: Prometheus exposition of requests, sessions, streams, commands and upstream
/// calls, what the sessions hold in memory, and the standard process metrics.
struct MetricsRoute: HTTPResponder {
    let metrics: BinderyMetrics
    let sessions: SessionStore
    let streams: EventStreams

    func respondImmediately(to request: Request) -> Response? {
        var text = metrics.exposition(liveSessions: sessions.count, openStreams: streams.count)
        text += Array((sessionMemory() + ProcessMetrics.exposition()).utf8)
        return Response(
            status: .ok,
            headers: [.contentType: "text/plain; version=0.0.4; charset=utf-8", .cacheControl: "no-store"],
            body: .bytes(text)
        )
    }

    /// What the live sessions hold ready to serve: the encoded snapshots on their boards, in
    /// total and per session, a buffer that sessions share counted once. A lower bound of a
    /// session's cost (its view models, their observation state and the version log in the store
    /// come on top), for comparing.
    private func sessionMemory() -> String {
        let live = sessions.liveSessions
        let bytes = SnapshotBoard.retainedBytes(of: live.lazy.map(\.graph.board))
        let average = live.isEmpty ? 0 : bytes / live.count
        return """
            # HELP bindery_session_snapshot_bytes Bytes of encoded snapshots live sessions hold, a buffer they share counted once.
            # TYPE bindery_session_snapshot_bytes gauge
            bindery_session_snapshot_bytes \(bytes)
            # HELP bindery_session_snapshot_bytes_per_session Bytes of encoded snapshots a live session holds on average.
            # TYPE bindery_session_snapshot_bytes_per_session gauge
            bindery_session_snapshot_bytes_per_session \(average)

            """
    }

    func respond(to request: Request) async throws -> Response {
        respondImmediately(to: request) ?? Response(status: .internalServerError)
    }
}
