import ArgumentParser
import Bindery

/// `bindery openapi`: prints the OpenAPI 3.1 document that `bindery serve` with the same options
/// serves at `/openapi.json`.
struct OpenAPICommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "openapi",
        abstract: "Print the OpenAPI 3.1 document of the server these options describe, without serving."
    )

    @OptionGroup var options: ServeOptions
    @OptionGroup var upstream: UpstreamOptions

    func run() throws {
        try options.printOpenAPIDocument(app: try upstream.seedApps(for: options))
    }
}
