import ArgumentParser
import Bindery
import SeedApps

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
        let settings = try upstream.settings()
        let control = upstream.control(listeningOnLoopback: options.listensOnLoopback)
        let changedBy = upstream.upstreamChangedBy
        try options.printOpenAPIDocument { context in
            SeedApps(
                    upstream: settings, upstreamControl: control, upstreamChangedBy: changedBy, context: context
                ).app
        }
    }
}
