import CoreMetrics
import Prometheus
import Synchronization

/// Bindery's Prometheus metrics, recorded through swift-metrics with an explicit factory.
///
/// Each application owns its registry, so tests can run several servers in one process and no
/// global metrics system has to be bootstrapped. Every family has a help text
/// (``helpTexts``); an app gives its own with ``AppContext/describeMetric(_:help:)``.
package final class BinderyMetrics: Sendable {
    private let registry = PrometheusCollectorRegistry()
    let factory: DescribedMetricsFactory
    private let sessions: CoreMetrics.Gauge
    private let streams: CoreMetrics.Gauge
    /// The request metrics made so far, by route, method and status: made once, not per request.
    private let requestMetrics = Mutex<[RequestKey: (count: CoreMetrics.Counter, duration: CoreMetrics.Timer)]>([:])

    /// What a request's metrics are labelled with (hashed as it is: no label text built per request).
    private struct RequestKey: Hashable {
        let route: String
        let method: String
        let status: Int
    }

    /// Creates an empty registry.
    package init() {
        var prometheus = PrometheusMetricsFactory(registry: registry)
        prometheus.defaultDurationHistogramBuckets = [
            .microseconds(100), .microseconds(500), .milliseconds(1), .milliseconds(5), .milliseconds(25),
            .milliseconds(100), .milliseconds(500), .seconds(1), .seconds(2.5), .seconds(10),
        ]
        let factory = DescribedMetricsFactory(prometheus, help: Self.helpTexts)
        self.factory = factory
        sessions = CoreMetrics.Gauge(label: "bindery_sessions_live", dimensions: [], factory: factory)
        streams = CoreMetrics.Gauge(label: "bindery_event_streams_open", dimensions: [], factory: factory)
    }

    /// Counts a request by route and status and records its duration by route.
    package func request(route: String, method: String, status: Int, duration: Duration) {
        let key = RequestKey(route: route, method: method, status: status)
        let metrics = requestMetrics.withLock { cache in
            if let made = cache[key] { return made }
            let made = (
                count: CoreMetrics.Counter(
                    label: "bindery_http_requests_total",
                    dimensions: [("route", route), ("method", method), ("status", String(status))], factory: factory
                ),
                duration: CoreMetrics.Timer(
                    label: "bindery_http_request_duration_seconds", dimensions: [("route", route)], factory: factory
                )
            )
            cache[key] = made
            return made
        }
        metrics.count.increment()
        metrics.duration.recordNanoseconds(duration.nanoseconds)
    }

    /// Counts a command execution and, when it failed, the failure.
    package func command(path: String, name: String, failed: Bool) {
        let dimensions = [("view_model", Self.pattern(of: path)), ("command", name)]
        CoreMetrics.Counter(label: "bindery_command_executions_total", dimensions: dimensions, factory: factory).increment()
        if failed {
            CoreMetrics.Counter(label: "bindery_command_failures_total", dimensions: dimensions, factory: factory).increment()
        }
    }

    /// Counts a retry with an `Idempotency-Key` answered without running: `replayed` (the stored
    /// answer), `in_progress` (409 while the first runs elsewhere), `reused` (422, another request).
    package func idempotentRetry(_ outcome: String) {
        CoreMetrics.Counter(label: "bindery_idempotent_retries_total", dimensions: [("outcome", outcome)], factory: factory).increment()
    }

    /// Counts quiet sessions that left memory for the store (hibernated).
    package func sessionsHibernated(_ count: Int) {
        guard count > 0 else { return }
        CoreMetrics.Counter(label: "bindery_sessions_hibernated_total", dimensions: [], factory: factory).increment(by: count)
    }

    /// The exposition text, with the live gauges set to the given counts first.
    package func exposition(liveSessions: Int, openStreams: Int) -> [UInt8] {
        sessions.record(liveSessions)
        streams.record(openStreams)
        return registry.emitToBuffer()
    }

    /// A view-model path as a bounded label: `list/items/42` -> `list/items/{id}`.
    static func pattern(of path: String) -> String {
        let segments = path.split(separator: "/")
        guard segments.count > 2 else { return path }
        return "\(segments[0])/\(segments[1])/{id}"
    }
}

extension Duration {
    /// The duration in whole nanoseconds (saturating).
    var nanoseconds: Int64 {
        let (seconds, attoseconds) = components
        return seconds.multipliedReportingOverflow(by: 1_000_000_000).partialValue + attoseconds / 1_000_000_000
    }
}
