import ArgumentParser
import Bindery

/// `bindery serve` (the default): serves the seed apps until SIGINT or SIGTERM, exporting traces
/// when `OTEL_EXPORTER_OTLP_ENDPOINT` is set.
struct ServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Serve the seed apps, the thin client and the API (the default).",
        discussion: """
            Every option can also be set with an environment variable named after it: BINDERY_ \
            followed by the option in upper case with dashes as underscores (e.g. BINDERY_PORT=9000). \
            A flag on the command line wins over the environment.
            """
    )

    @OptionGroup var options: ServeOptions
    @OptionGroup var upstream: UpstreamOptions

    func run() async throws {
        let apps = try upstream.seedApps(for: options)
        try await TracesExport.serving(logLevel: options.logLevel.level) {
            try await options.serve(app: apps)
        }
    }
}
