extension AppContext {
    /// Gives the app's metric family `name` (made with `factory: context.metrics`) the help text
    /// `/metrics` shows for it (`# HELP`): what it counts, in one sentence. Call it before the
    /// family's first metric is made; a family keeps the text it was made with.
    ///
    /// ```swift
    /// context.describeMetric("shop_orders_total", help: "Orders placed, by payment method.")
    /// Counter(label: "shop_orders_total", dimensions: [("method", "card")], factory: context.metrics).increment()
    /// ```
    public func describeMetric(_ name: String, help: String) {
        (metrics as? DescribedMetricsFactory)?.describe(name, help: help)
    }
}
