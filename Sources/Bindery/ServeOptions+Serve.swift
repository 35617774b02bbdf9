import ArgumentParser
import BinderyBinding
import Foundation
import Logging

extension ServeOptions {
    /// Serves the app `build` makes with these options until SIGINT or SIGTERM, then shuts down
    /// gracefully; logs to standard output at ``logLevel``. What a command's `run()` calls.
    ///
    /// The open-file limit is raised to its hard limit first, and the connection limit lowered to
    /// what it allows. A store that cannot be opened stops the process with one line naming it.
    public func serve(app build: @escaping @Sendable (AppContext) throws -> BinderyApp) async throws {
        bootstrapLogging()
        let logger = Logger(label: "bindery")
        var configuration = try configuration()
        let descriptors = FileDescriptorBudget.raise()
        let affordable = FileDescriptorBudget.connections(allowedBy: descriptors, workers: configuration.server.workers)
        if configuration.server.connectionLimit > affordable {
            // The default limit fitted to the machine is normal (info); a limit asked for that
            // cannot be kept is worth a warning.
            let asked = maxConnections != Self.defaultMaxConnections
            logger.log(
                level: asked ? .warning : .info,
                "Open-file limit \(descriptors) allows \(affordable) connections, not \(configuration.server.connectionLimit): lowering the limit (raise `ulimit -n` for more)"
            )
            configuration.server.connectionLimit = affordable
        }
        let server: BinderyServer
        do {
            server = try await BinderyServer(configuration: configuration, logger: logger, app: build)
        } catch {
            // One line naming what failed, no stack: a corrupt or unreadable store stops startup.
            FileHandle.standardError.write(
                Data("\(CommandLine.arguments.first.map { ($0 as NSString).lastPathComponent } ?? "bindery"): \(error)\n".utf8))
            throw ExitCode.failure
        }
        do {
            try await server.run()
        } catch let refusal as StoredStateRefusal {
            // One line per view model or collection whose stored state this build cannot read.
            let name = CommandLine.arguments.first.map { ($0 as NSString).lastPathComponent } ?? "bindery"
            for line in refusal.lines {
                FileHandle.standardError.write(Data("\(name): cannot start: \(line)\n".utf8))
            }
            throw ExitCode.failure
        } catch {
            logger.critical("Cannot serve: \(error)")
            throw ExitCode.failure
        }
    }

    /// Reads every stored state with the declarations of the app `build` makes, without serving
    /// (a `check-store` subcommand, for a deploy pipeline): prints what it found, one line per
    /// finding, and fails when some stored state cannot be read.
    public func checkStore(app build: @escaping @Sendable (AppContext) throws -> BinderyApp) async throws {
        var logger = Logger(label: "bindery")
        logger.logLevel = .warning
        let readable: Bool
        do {
            readable = try await BinderyServer.checkStore(configuration: try configuration(), logger: logger, app: build) { line in
                FileHandle.standardOutput.write(Data((line + "\n").utf8))
            }
        } catch {
            FileHandle.standardError.write(Data("check-store: \(error)\n".utf8))
            throw ExitCode.failure
        }
        if !readable { throw ExitCode.failure }
    }

    /// Prints the OpenAPI document a server of `build` with these options would serve, without
    /// serving (an `openapi` subcommand).
    public func printOpenAPIDocument(app build: @escaping @Sendable (AppContext) throws -> BinderyApp) throws {
        let document = try BinderyServer.openAPIDocument(configuration: try configuration(), app: build)
        FileHandle.standardOutput.write(Data(document))
    }

    /// Sends the process's logs to standard output at ``logLevel`` (once per process, as
    /// swift-log requires: an executable's job, never a library's).
    public func bootstrapLogging() {
        let level = logLevel.level
        LoggingSystem.bootstrap { label in
            var handler = StreamLogHandler.standardOutput(label: label)
            handler.logLevel = level
            return handler
        }
    }
}
