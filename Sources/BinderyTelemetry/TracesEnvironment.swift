/// What the standard `OTEL_*` variables ask of the trace exporter, read before anything is
/// bootstrapped (swift-otel then reads the same variables for the rest of its configuration).
struct TracesEnvironment {
    /// The OTLP encodings over HTTP, the only transport built in.
    static let protocols: Set<String> = ["http/protobuf", "http/json"]

    /// Where spans go: `OTEL_EXPORTER_OTLP_TRACES_ENDPOINT`, else `OTEL_EXPORTER_OTLP_ENDPOINT`
    /// (to which swift-otel appends `/v1/traces`).
    let endpoint: String
    /// `http/protobuf` or `http/json`.
    let `protocol`: String

    /// The export the variables ask for, or nil: no endpoint set, the SDK disabled
    /// (`OTEL_SDK_DISABLED`) or the traces exporter `none` (`OTEL_TRACES_EXPORTER`). Throws when
    /// exporting would need what is not built in: a protocol other than OTLP/HTTP, an exporter other
    /// than OTLP. A signal's own variable wins over the shared one, as the OpenTelemetry
    /// specification says.
    init?(_ environment: [String: String]) throws(TelemetryConfigurationError) {
        func value(_ name: String) -> String? {
            environment[name].flatMap { $0.isEmpty ? nil : $0 }
        }
        let exporter = value("OTEL_TRACES_EXPORTER")?.lowercased() ?? "otlp"
        guard let endpoint = value("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT") ?? value("OTEL_EXPORTER_OTLP_ENDPOINT"),
            value("OTEL_SDK_DISABLED")?.lowercased() != "true", exporter != "none"
        else { return nil }
        guard exporter == "otlp" else { throw .exporterNotBuiltIn(exporter) }
        let name = value("OTEL_EXPORTER_OTLP_TRACES_PROTOCOL") ?? value("OTEL_EXPORTER_OTLP_PROTOCOL") ?? "http/protobuf"
        guard Self.protocols.contains(name) else { throw .protocolNotBuiltIn(name) }
        self.endpoint = endpoint
        self.protocol = name
    }
}
