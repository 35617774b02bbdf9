import Foundation
import Logging
import OTel
import ServiceLifecycle
import Tracing

/// Exports the server's request spans over OTLP/HTTP when the standard `OTEL_*` variables ask for
/// it; a separate product, so a server that does not export traces does not compile swift-otel.
public enum BinderyTelemetry {
    /// Bootstraps the process's tracer to export spans over OTLP/HTTP when
    /// `OTEL_EXPORTER_OTLP_ENDPOINT` (or `OTEL_EXPORTER_OTLP_TRACES_ENDPOINT`) is set, and returns
    /// the exporter's service: run it for the server's lifetime and shut it down after the server,
    /// so the last spans are sent. Without an endpoint it bootstraps nothing and returns nil:
    /// tracing is off at no cost.
    ///
    /// `OTEL_EXPORTER_OTLP_PROTOCOL` is `http/protobuf` (the default) or `http/json`; `grpc` throws
    /// (not built in). `OTEL_SERVICE_NAME` defaults to `bindery`; the other `OTEL_*` variables of
    /// traces (`OTEL_BSP_SCHEDULE_DELAY`, `OTEL_TRACES_SAMPLER`, …) apply as swift-otel reads them.
    /// The exporter's own diagnostics go to `logger`. Call it once per process, before serving.
    public static func bootstrapFromEnvironment(logger: Logger) throws -> (some Service)? {
        try TracesEnvironment(ProcessInfo.processInfo.environment).map { try bootstrapTracer($0, logger: logger) }
    }

    /// Bootstraps swift-otel's tracer for `export` and returns its service (exporter, batch
    /// processor, tracer).
    private static func bootstrapTracer(_ export: TracesEnvironment, logger: Logger) throws -> some Service {
        // Traces only: Bindery has its own metrics (/metrics) and log handler, so swift-otel's
        // metrics and logs backends are never made, whatever OTEL_METRICS_/LOGS_EXPORTER say.
        var configuration = OTel.Configuration.default
        configuration.serviceName = "bindery"
        configuration.diagnosticLogger = .custom(logger)
        configuration.diagnosticLogLevel = .init(logger.logLevel)
        configuration.logs.enabled = false
        configuration.metrics.enabled = false
        let backend = try OTel.makeTracingBackend(configuration: configuration)
        InstrumentationSystem.bootstrap(backend.factory)
        logger.info("Exporting traces", metadata: ["otlp.endpoint": "\(export.endpoint)", "otlp.protocol": "\(export.protocol)"])
        return backend.service
    }
}
