import ArgumentParser

/// `bindery`: serves MVVM view models over HTTP (`serve`, the default), prints the OpenAPI
/// document of what it would serve (`openapi`), or checks that it reads every stored state
/// (`check-store`).
@main
struct BinderyCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bindery",
        abstract: "Serve MVVM view models over HTTP: snapshots, PATCHed inputs, POSTed commands, pushed events.",
        discussion: """
            Without a subcommand, bindery serves (`bindery --port 9000` is `bindery serve --port 9000`); \
            `bindery serve --help` lists every option. Every option can also be set with an environment variable \
            named after it: BINDERY_ followed by the option in upper case with dashes as underscores \
            (e.g. BINDERY_PORT=9000). A flag on the command line wins over the environment.
            """,
        subcommands: [ServeCommand.self, OpenAPICommand.self, GenerateClientCommand.self, CheckStoreCommand.self],
        defaultSubcommand: ServeCommand.self
    )
}
