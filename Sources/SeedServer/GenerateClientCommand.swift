import ArgumentParser
import Bindery
import SeedApps

/// `bindery generate-client swift --output DIR`: writes the seed apps' typed Swift clients (one
/// file per screen and child view model type), as `Sources/SeedClients` holds them.
struct GenerateClientCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "generate-client",
        abstract: "Write typed client code (Swift, on BinderyClient) for every screen and child view model type."
    )

    @OptionGroup var generation: ClientGenerationOptions

    func run() throws {
        try generation.generate { context in SeedApps(context: context).app }
    }
}
