/// How fast a view model's writes must reach the store or its watchers, declared with
/// ``ViewModelDeclaration/latencyBudget(_:)``: e.g. write → push within 25 ms for 99 % of writes.
///
/// The server measures every write (a PATCH, a command, a text edit) from the moment it was
/// received; a write slower than ``limit`` is a breach, counted per screen in `/metrics`
/// (`bindery_latency_budget_breaches_total`) and shown in the inspector. The budget holds while
/// breaches stay under `100 - percentile` percent of the writes
/// (`bindery_write_to_push_seconds_count` counts them).
public struct LatencyBudget: Sendable, Equatable {
    /// What is measured.
    public enum Measure: String, Sendable {
        /// A write received → its version committed to the store.
        case writeToCommit = "write_to_commit"
        /// A write received → its version written to the last event-stream watcher.
        case writeToPush = "write_to_push"
    }

    /// What is measured.
    public let measure: Measure
    /// The longest a write may take.
    public let limit: Duration
    /// The share of writes that must take no longer, in percent (99: the 99th percentile).
    public let percentile: Double

    /// Write received → pushed to the last watcher within `limit` for `percentile` % of writes.
    public static func writeToPush(_ limit: Duration, percentile: Double = 99) -> Self {
        Self(measure: .writeToPush, limit: limit, percentile: percentile)
    }

    /// Write received → committed to the store within `limit` for `percentile` % of writes.
    public static func writeToCommit(_ limit: Duration, percentile: Double = 99) -> Self {
        Self(measure: .writeToCommit, limit: limit, percentile: percentile)
    }
}
