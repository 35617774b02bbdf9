import ArgumentParser
import BinderyBinding
import BinderyStore
import Foundation
import Logging

/// `bindery serve` (the default): runs the server until SIGINT or SIGTERM.
struct ServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Serve the view models, the thin client and the API (the default).",
        discussion: """
            Every option can also be set with an environment variable named after it: BINDERY_ \
            followed by the option in upper case with dashes as underscores (e.g. BINDERY_PORT=9000). \
            A flag on the command line wins over the environment.
            """
    )

    @OptionGroup var options: ServeOptions

    func run() async throws {
        LoggingSystem.bootstrap { label in
            var handler = StreamLogHandler.standardOutput(label: label)
            handler.logLevel = options.logLevel.level
            return handler
        }
        let logger = Logger(label: "bindery")
        var configuration = try options.configuration()
        let descriptors = FileDescriptorBudget.raise()
        let affordable = FileDescriptorBudget.connections(allowedBy: descriptors, workers: configuration.server.workers)
        if configuration.server.connectionLimit > affordable {
            logger.warning("Open-file limit \(descriptors) allows \(affordable) connections, not \(configuration.server.connectionLimit): lowering the limit (raise `ulimit -n` for more)")
            configuration.server.connectionLimit = affordable
        }
        let location = try options.storeLocation()
        let store: any SessionStateStore
        do {
            store = try await location.open()
        } catch {
            // One line naming the file, no stack: a corrupt or unreadable store stops startup.
            FileHandle.standardError.write(Data("bindery: \(error)\n".utf8))
            throw ExitCode.failure
        }
        logger.info("Store opened", metadata: ["store": "\(location)"])
        let application: BinderyApplication
        do {
            let recipes = try await BinderyApplication.openRecipes(store: store)
            application = BinderyApplication(configuration: configuration, logger: logger, store: store, recipes: recipes)
        } catch {
            FileHandle.standardError.write(Data("bindery: cannot load the recipes: \(error)\n".utf8))
            throw ExitCode.failure
        }
        do {
            try application.start()
        } catch {
            logger.critical("Cannot start: \(error)")
            throw ExitCode.failure
        }
        let signal = await TerminationSignal.next()
        logger.info("Received \(signal), shutting down")
        await application.shutdown()
    }
}
