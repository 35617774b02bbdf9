import BinderyRuntime
import CoreMetrics

/// The latency a user feels, per screen: a write received → its version committed, and →
/// written to the last watcher; and the writes over a declared ``LatencyBudget``.
extension BinderyMetrics {
    /// Shows a breach count of 0 for every budget the screens declare (their own or their child
    /// view models'), so a dashboard or an alert finds each series before the first breach.
    package func declareBudgets(of screens: [Screen]) {
        for screen in screens {
            var measures = Set<LatencyBudget.Measure>()
            var schemas = [screen.schema]
            while let schema = schemas.popLast() {
                measures.formUnion(schema.latencyBudgets.map(\.measure))
                schemas += schema.children.map(\.viewModel)
            }
            for measure in measures.sorted(by: { $0.rawValue < $1.rawValue }) {
                CoreMetrics.Counter(
                    label: "bindery_latency_budget_breaches_total",
                    dimensions: [("screen", screen.name), ("measure", measure.rawValue)], factory: factory
                ).increment(by: 0)
            }
        }
    }

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
