import ArgumentParser
import Bindery

/// `bindery check-store`: reads every stored state with the seed apps' declarations and reports
/// what this build cannot read, without serving; fails when there is any (a deploy pipeline's
/// step before the new version starts).
struct CheckStoreCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check-store",
        abstract: "Read every stored state with this build's declarations and report what it cannot read, without serving."
    )

    @OptionGroup var options: ServeOptions
    @OptionGroup var upstream: UpstreamOptions

    func run() async throws {
        try await options.checkStore(app: try upstream.seedApps(for: options))
    }
}
