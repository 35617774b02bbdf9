import ArgumentParser
import BinderyBinding

extension BinderyApp {
    /// Runs the app as an executable: `serve` (the default) with every ``ServeOptions`` option
    /// (`--host`, `--port`, `--store`, …, and their `BINDERY_*` variables), `openapi` to print
    /// the OpenAPI document, `check-store` to read every stored state with this build's
    /// declarations (before a deploy), or `generate-client swift --output DIR` to write typed
    /// client code (one file per screen and child view model type); `--help` lists them.
    ///
    /// ```swift
    /// @main
    /// enum Server {
    ///     static func main() async {
    ///         await BinderyApp(screens: [Screen("counter", title: "Counter") { CounterViewModel() }]).main()
    ///     }
    /// }
    /// ```
    public func main() async {
        await Self.main { _ in self }
    }

    /// Runs the app `build` makes as an executable (see ``main()``); `build` gets the server's
    /// clock, log and metrics.
    public static func main(_ build: @escaping @Sendable (AppContext) throws -> BinderyApp) async {
        do {
            var command = try AppCommand.parseAsRoot()
            switch command {
            case let serve as AppCommand.Serve:
                try await serve.options.serve(app: build)
            case let openAPI as AppCommand.OpenAPI:
                try openAPI.options.printOpenAPIDocument(app: build)
            case let generate as AppCommand.GenerateClient:
                try generate.options.generate(app: build)
            case let check as AppCommand.CheckStore:
                try await check.options.checkStore(app: build)
            default:
                try command.run()
            }
        } catch {
            AppCommand.exit(withError: error)
        }
    }
}

/// The command line ``BinderyApp/main()`` reads: `serve` (the default), `openapi` and `generate-client`.
struct AppCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: CommandLine.arguments.first.flatMap { $0.split(separator: "/").last.map(String.init) },
        abstract: "Serve MVVM view models over HTTP: snapshots, PATCHed inputs, POSTed commands, pushed events.",
        discussion: """
            Every option can also be set with an environment variable named after it: BINDERY_ followed by the \
            option in upper case with dashes as underscores (e.g. BINDERY_PORT=9000). A flag on the command line \
            wins over the environment.
            """,
        subcommands: [Serve.self, OpenAPI.self, GenerateClient.self, CheckStore.self],
        defaultSubcommand: Serve.self
    )

    /// `serve`: runs the server until SIGINT or SIGTERM.
    struct Serve: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Serve the view models, the thin client and the API (the default).")
        @OptionGroup var options: ServeOptions
    }

    /// `openapi`: prints the OpenAPI document without serving.
    struct OpenAPI: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "openapi",
            abstract: "Print the OpenAPI 3.1 document of the server these options describe, without serving."
        )
        @OptionGroup var options: ServeOptions
    }

    /// `check-store`: reads every stored state with the app's declarations, without serving.
    struct CheckStore: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "check-store",
            abstract: "Read every stored state with this build's declarations and report what it cannot read, without serving."
        )
        @OptionGroup var options: ServeOptions
    }

    /// `generate-client`: writes typed client code for the app's screens, without serving.
    struct GenerateClient: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "generate-client",
            abstract: "Write typed client code (Swift, on BinderyClient) for every screen and child view model type."
        )
        @OptionGroup var options: ClientGenerationOptions
    }
}
