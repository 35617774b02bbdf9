import CoreMetrics
import Prometheus
import Synchronization

/// swift-metrics' factory over a Prometheus registry that gives each family the `# HELP` text
/// described for its name, so `/metrics` passes `promtool check metrics`.
///
/// swift-metrics has no help texts, and swift-prometheus's own factory makes every family without
/// one. This one makes a described family through the registry's descriptor API instead, and
/// everything else as swift-prometheus's factory does. A family's text is fixed when it is first
/// made (the registry refuses two texts for one name): a description that comes later is ignored.
final class DescribedMetricsFactory: MetricsFactory, Sendable {
    private let prometheus: PrometheusMetricsFactory
    /// The help texts by family name, and the names already made (whose text is fixed).
    private let texts: Mutex<(help: [String: String], made: Set<String>)>

    /// A factory over `prometheus`'s registry and buckets, with these help texts by family name.
    init(_ prometheus: PrometheusMetricsFactory, help: [String: String]) {
        self.prometheus = prometheus
        self.texts = Mutex((help, []))
    }

    /// Gives the family `name` the help text `help`, unless the family was already made.
    func describe(_ name: String, help: String) {
        texts.withLock { texts in
            guard !texts.made.contains(name) else { return }
            texts.help[name] = help
        }
    }

    /// The descriptor of the family `name` when it has a help text; marks the name as made.
    private func descriptor(_ name: String) -> MetricNameDescriptor? {
        texts.withLock { texts in
            texts.made.insert(name)
            return texts.help[name].map { MetricNameDescriptor(metricName: name, unitName: "", helpText: $0) }
        }
    }

    func makeCounter(label: String, dimensions: [(String, String)]) -> any CounterHandler {
        guard let descriptor = descriptor(label) else {
            return prometheus.makeCounter(label: label, dimensions: dimensions)
        }
        return prometheus.registry.makeCounter(descriptor: descriptor, labels: dimensions)
    }

    func makeFloatingPointCounter(label: String, dimensions: [(String, String)]) -> any FloatingPointCounterHandler {
        guard let descriptor = descriptor(label) else {
            return prometheus.makeFloatingPointCounter(label: label, dimensions: dimensions)
        }
        return prometheus.registry.makeCounter(descriptor: descriptor, labels: dimensions)
    }

    func makeRecorder(label: String, dimensions: [(String, String)], aggregate: Bool) -> any RecorderHandler {
        guard let descriptor = descriptor(label) else {
            return prometheus.makeRecorder(label: label, dimensions: dimensions, aggregate: aggregate)
        }
        guard aggregate else { return prometheus.registry.makeGauge(descriptor: descriptor, labels: dimensions) }
        let buckets = prometheus.valueHistogramBuckets[label] ?? prometheus.defaultValueHistogramBuckets
        return prometheus.registry.makeValueHistogram(descriptor: descriptor, labels: dimensions, buckets: buckets)
    }

    func makeMeter(label: String, dimensions: [(String, String)]) -> any MeterHandler {
        guard let descriptor = descriptor(label) else {
            return prometheus.makeMeter(label: label, dimensions: dimensions)
        }
        return prometheus.registry.makeGauge(descriptor: descriptor, labels: dimensions)
    }

    func makeTimer(label: String, dimensions: [(String, String)]) -> any TimerHandler {
        guard let descriptor = descriptor(label) else {
            return prometheus.makeTimer(label: label, dimensions: dimensions)
        }
        let buckets = prometheus.durationHistogramBuckets[label] ?? prometheus.defaultDurationHistogramBuckets
        return prometheus.registry.makeDurationHistogram(descriptor: descriptor, labels: dimensions, buckets: buckets)
    }

    func destroyCounter(_ handler: any CounterHandler) { prometheus.destroyCounter(handler) }
    func destroyFloatingPointCounter(_ handler: any FloatingPointCounterHandler) {
        prometheus.destroyFloatingPointCounter(handler)
    }
    func destroyRecorder(_ handler: any RecorderHandler) { prometheus.destroyRecorder(handler) }
    func destroyMeter(_ handler: any MeterHandler) { prometheus.destroyMeter(handler) }
    func destroyTimer(_ handler: any TimerHandler) { prometheus.destroyTimer(handler) }
}
