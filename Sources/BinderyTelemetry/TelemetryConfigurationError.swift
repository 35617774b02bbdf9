/// An `OTEL_*` variable asks for something this build cannot do: said in one line at start rather
/// than ignored (swift-otel itself would stop the process for a transport that is not built in).
enum TelemetryConfigurationError: Error, CustomStringConvertible {
    /// `OTEL_EXPORTER_OTLP_[TRACES_]PROTOCOL` is not `http/protobuf` or `http/json`.
    case protocolNotBuiltIn(String)
    /// `OTEL_TRACES_EXPORTER` is not `otlp` or `none`.
    case exporterNotBuiltIn(String)

    var description: String {
        switch self {
        case .protocolNotBuiltIn("grpc"):
            "OTEL_EXPORTER_OTLP_PROTOCOL=grpc: OTLP/gRPC is not built in; use http/protobuf (the default) or http/json"
        case .protocolNotBuiltIn(let name):
            "OTEL_EXPORTER_OTLP_PROTOCOL=\(name) is not supported; use http/protobuf (the default) or http/json"
        case .exporterNotBuiltIn(let name):
            "OTEL_TRACES_EXPORTER=\(name) is not built in; use otlp (the default) or none"
        }
    }
}
