@testable import BinderyBinding
import Logging
import Testing

/// Every metric family has a `# HELP` line, Bindery's own and an app's described ones; a family
/// keeps the text it was made with.
@Suite("Metrics: help texts")
struct MetricsHelpTests {
    /// The families of `exposition` (their `# TYPE` lines) that have no `# HELP` line.
    static func familiesWithoutHelp(_ exposition: String) -> [String] {
        let lines = exposition.split(separator: "\n")
        let typed = lines.filter { $0.hasPrefix("# TYPE ") }.map { $0.split(separator: " ")[2] }
        let helped = Set(lines.filter { $0.hasPrefix("# HELP ") }.map { $0.split(separator: " ")[2] })
        return typed.filter { !helped.contains($0) }.map(String.init)
    }

    @Test func everyFamilyBinderyRecordsHasItsHelpText() {
        let metrics = BinderyMetrics()
        metrics.request(route: "/api/views/{path}", method: "GET", status: 200, duration: .milliseconds(3))
        metrics.command(path: "list/items/42", name: "delete", failed: true)
        metrics.idempotentRetry("replayed")
        metrics.sessionsHibernated(2)
        metrics.writeLatency(screen: "list", toCommit: .milliseconds(4), toPush: .milliseconds(6), budgets: [])
        metrics.storeCommit(duration: .milliseconds(2), outcome: "conflict")
        metrics.storeNotification(lag: .milliseconds(9), reloaded: false)
        metrics.storeReachable(true)
        metrics.storeChangeReceived()
        metrics.sessionLetGo()
        metrics.storedStatesSetAside(0)
        let text = String(decoding: metrics.exposition(liveSessions: 1, openStreams: 1), as: UTF8.self)

        let families = text.split(separator: "\n").filter { $0.hasPrefix("# TYPE ") }.count
        #expect(families == BinderyMetrics.helpTexts.count - 1, "every family but the latency budgets' was made")
        #expect(Self.familiesWithoutHelp(text) == [])
        #expect(text.contains("# HELP bindery_http_requests_total HTTP requests answered, by route, method and status.\n"))
    }

    @Test func anAppDescribesItsOwnFamiliesBeforeTheirFirstUse() {
        let metrics = BinderyMetrics()
        let context = AppContext(clock: ContinuousClock(), logger: Logger(label: "test"), metrics: metrics.factory)
        context.describeMetric("shop_orders_total", help: "Orders placed, by payment method.")
        metrics.factory.makeCounter(label: "shop_orders_total", dimensions: [("method", "card")]).increment(by: 1)
        // Too late: the family keeps its text, and a second series of it is made as the first was.
        context.describeMetric("shop_orders_total", help: "Another text.")
        metrics.factory.makeCounter(label: "shop_orders_total", dimensions: [("method", "cash")]).increment(by: 1)
        // Never described: made as swift-prometheus makes it, without a help text.
        metrics.factory.makeCounter(label: "shop_visits_total", dimensions: []).increment(by: 1)
        let text = String(decoding: metrics.exposition(liveSessions: 0, openStreams: 0), as: UTF8.self)

        #expect(text.contains("# HELP shop_orders_total Orders placed, by payment method.\n"))
        #expect(!text.contains("Another text."))
        #expect(text.contains(#"shop_orders_total{method="cash"} 1"#))
        #expect(Self.familiesWithoutHelp(text) == ["shop_visits_total"])
    }
}
