import ArgumentParser
import BinderyTelemetry
import Foundation
import Logging
import ServiceLifecycle

/// The seed server's trace export: swift-otel's exporter from the `OTEL_*` variables (see
/// `BinderyTelemetry`), run beside the server and stopped after it, so the spans of the last
/// requests before a SIGTERM are sent.
enum TracesExport {
    /// Bootstraps the exporter if the environment asks for one, then runs `serve` (the server, which
    /// handles SIGINT and SIGTERM itself); once it returns or throws, shuts the exporter down
    /// gracefully, which flushes its queue. Without `OTEL_EXPORTER_OTLP_ENDPOINT` it only runs `serve`.
    static func serving(logLevel: Logger.Level, _ serve: () async throws -> Void) async throws {
        // The server bootstraps swift-log only inside `serve`: the exporter logs the same way
        // (standard output, the server's level) through a handler of its own.
        var logger = Logger(label: "bindery.traces") { label in StreamLogHandler.standardOutput(label: label) }
        logger.logLevel = logLevel
        guard let exporter = try bootstrap(logger: logger) else { return try await serve() }
        // No signals of its own: the server stops first, then the exporter (its last batch sent).
        let group = ServiceGroup(services: [exporter], logger: logger)
        try await withThrowingDiscardingTaskGroup { tasks in
            tasks.addTask { try await group.run() }
            do {
                try await serve()
            } catch {
                await group.triggerGracefulShutdown()
                throw error
            }
            await group.triggerGracefulShutdown()
        }
    }

    /// `BinderyTelemetry.bootstrapFromEnvironment(logger:)`, a configuration it cannot serve (e.g.
    /// OTLP/gRPC asked for) said in one line, as for a store that cannot be opened.
    private static func bootstrap(logger: Logger) throws -> (some Service)? {
        do {
            return try BinderyTelemetry.bootstrapFromEnvironment(logger: logger)
        } catch {
            FileHandle.standardError.write(Data("bindery: \(error)\n".utf8))
            throw ExitCode.failure
        }
    }
}
