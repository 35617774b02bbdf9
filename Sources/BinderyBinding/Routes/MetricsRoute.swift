import BinderyHTTP
import BinderyRuntime
import BinderyStore

/// `GET /metrics`: Prometheus exposition of requests, sessions, streams, commands and upstream
/// calls, what the sessions hold in memory, the store's commits, and the standard process metrics.
struct MetricsRoute: HTTPResponder {
    let metrics: BinderyMetrics
    let sessions: SessionRegistry
    let streams: EventStreams
    /// The store's writer, when it commits in transactions (not the memory store).
    let commits: (any GroupCommitReporting)?

    func respondImmediately(to request: Request) -> Response? {
        var text = metrics.exposition(liveSessions: sessions.count, openStreams: streams.count)
        text += Array((sessionMemory() + storeCommits() + ProcessMetrics.exposition()).utf8)
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

    /// How the store's writer batches: writes acknowledged, in how many transactions, and the
    /// transactions that failed. Writes over transactions is what group commit gains under load.
    private func storeCommits() -> String {
        guard let statistics = commits?.statistics else { return "" }
        return """
            # HELP bindery_store_transactions_total Transactions the store's writer committed.
            # TYPE bindery_store_transactions_total counter
            bindery_store_transactions_total \(statistics.transactions)
            # HELP bindery_store_write_operations_total Write operations those transactions acknowledged (group commit puts several in one).
            # TYPE bindery_store_write_operations_total counter
            bindery_store_write_operations_total \(statistics.operations)
            # HELP bindery_store_failed_transactions_total Transactions that failed to commit; every write in them failed.
            # TYPE bindery_store_failed_transactions_total counter
            bindery_store_failed_transactions_total \(statistics.failedTransactions)

            """
    }

    func respond(to request: Request) async throws -> Response {
        respondImmediately(to: request) ?? Response(status: .internalServerError)
    }
}
