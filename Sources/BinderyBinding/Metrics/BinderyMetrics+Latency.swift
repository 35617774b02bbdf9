import BinderyRuntime
import CoreMetrics

/// The latency a user feels, per screen: a write received → its version committed, and →
/// written to the last watcher; and the writes over a declared ``LatencyBudget``.
extension BinderyMetrics {
    /// Records one write on `screen` (a bounded label: the screens are declared) and counts it
    /// as a breach of each of `budgets` it exceeded.
    package func writeLatency(screen: String, toCommit: Duration, toPush: Duration?, budgets: [LatencyBudget]) {
        let dimensions = [("screen", screen)]
        CoreMetrics.Timer(label: "bindery_write_to_commit_seconds", dimensions: dimensions, factory: factory)
            .recordNanoseconds(toCommit.nanoseconds)
        if let toPush {
            CoreMetrics.Timer(label: "bindery_write_to_push_seconds", dimensions: dimensions, factory: factory)
                .recordNanoseconds(toPush.nanoseconds)
        }
        for budget in budgets {
            guard let measured = budget.measure == .writeToCommit ? toCommit : toPush, measured > budget.limit else { continue }
            CoreMetrics.Counter(
                label: "bindery_latency_budget_breaches_total",
                dimensions: [("screen", screen), ("measure", budget.measure.rawValue)], factory: factory
            ).increment()
        }
    }
}
