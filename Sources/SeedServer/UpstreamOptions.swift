import ArgumentParser
import Bindery
import BinderyUpstream
import SeedApps

/// The seed apps' own options: the fake upstream's seed, latency and failure rates, and whether
/// clients may change them at `/api/upstream`. Each falls back to a `BINDERY_UPSTREAM_*` variable.
struct UpstreamOptions: ParsableArguments {
    @Option(help: "Seed of the fake upstream's random failures (BINDERY_UPSTREAM_SEED).")
    var upstreamSeed: UInt64 = OptionEnvironment.uint64("BINDERY_UPSTREAM_SEED") ?? UpstreamSettings.seedDefaults.seed

    @Option(help: "Upstream latency in ms of every endpoint, as in the seed (BINDERY_UPSTREAM_LATENCY_MS).")
    var upstreamLatencyMs: Int = OptionEnvironment.int("BINDERY_UPSTREAM_LATENCY_MS") ?? Self.seed(.travel).latencyMs

    @Option(help: "Failure rate 0...1 of the travel endpoint, as in the seed (BINDERY_UPSTREAM_TRAVEL_FAILURE_RATE).")
    var upstreamTravelFailureRate: Double =
        OptionEnvironment.double("BINDERY_UPSTREAM_TRAVEL_FAILURE_RATE") ?? Self.seed(.travel).failureRate

    @Option(help: "Failure rate 0...1 of the hotel endpoint (BINDERY_UPSTREAM_HOTEL_FAILURE_RATE).")
    var upstreamHotelFailureRate: Double =
        OptionEnvironment.double("BINDERY_UPSTREAM_HOTEL_FAILURE_RATE") ?? Self.seed(.hotel).failureRate

    @Option(help: "Failure rate 0...1 of the photo endpoints (BINDERY_UPSTREAM_PHOTOS_FAILURE_RATE).")
    var upstreamPhotosFailureRate: Double =
        OptionEnvironment.double("BINDERY_UPSTREAM_PHOTOS_FAILURE_RATE") ?? Self.seed(.photos).failureRate

    @Flag(
        inversion: .prefixedEnableDisable,
        help:
            "Serve /api/upstream, the upstream's settings for everyone (changed by administrators); on by default only when listening on loopback (BINDERY_UPSTREAM_CONTROL=0/1)."
    )
    var upstreamControl: Bool?

    @Flag(
        help:
            "Let anyone change /api/upstream, not only users signed in with the admin role: for tests and demos on loopback (BINDERY_OPEN_UPSTREAM_CONTROL=1)."
    )
    var openUpstreamControl = OptionEnvironment.string("BINDERY_OPEN_UPSTREAM_CONTROL").map { $0 != "0" && $0 != "false" } ?? false

    /// Who may change the upstream's settings: administrators, or anyone with `--open-upstream-control`.
    var upstreamChangedBy: Access<Request> {
        openUpstreamControl ? .everyone : .role(RecipeRules.administrator)
    }

    /// The seed's settings of one endpoint (the defaults shown in `--help`).
    private static func seed(_ endpoint: UpstreamEndpoint) -> EndpointSettings {
        UpstreamSettings.seedDefaults.endpoint(endpoint)
    }

    /// The upstream settings these options describe.
    func settings() throws -> UpstreamSettings {
        var upstream = UpstreamSettings.seedDefaults
        guard UpstreamSettings.seedRange.contains(upstreamSeed) else {
            throw ValidationError("--upstream-seed must be in 0...\(UpstreamSettings.seedRange.upperBound).")
        }
        upstream.seed = upstreamSeed
        guard EndpointSettings.millisecondsRange.contains(upstreamLatencyMs) else {
            throw ValidationError("--upstream-latency-ms must be in 0...60000.")
        }
        for endpoint in UpstreamEndpoint.allCases {
            upstream.endpoints[endpoint]?.latencyMs = upstreamLatencyMs
        }
        let rates: [(UpstreamEndpoint, Double)] = [
            (.travel, upstreamTravelFailureRate), (.hotel, upstreamHotelFailureRate),
            (.photos, upstreamPhotosFailureRate), (.photoDetails, upstreamPhotosFailureRate),
        ]
        for (endpoint, rate) in rates {
            guard (0...1).contains(rate) else { throw ValidationError("Failure rates must be in 0...1.") }
            upstream.endpoints[endpoint]?.failureRate = rate
        }
        return upstream
    }

    /// Whether `/api/upstream` is served: the flag, else `BINDERY_UPSTREAM_CONTROL`, else only
    /// when the server listens on loopback.
    func control(listeningOnLoopback: Bool) -> Bool {
        upstreamControl
            ?? OptionEnvironment.string("BINDERY_UPSTREAM_CONTROL").map { $0 != "0" && $0 != "false" }
            ?? listeningOnLoopback
    }

    /// What builds the seed apps these options and `options` describe, for a subcommand to run.
    func seedApps(for options: ServeOptions) throws -> @Sendable (AppContext) -> BinderyApp {
        let settings = try settings()
        let control = control(listeningOnLoopback: options.listensOnLoopback)
        let changedBy = upstreamChangedBy
        return { context in
            SeedApps(upstream: settings, upstreamControl: control, upstreamChangedBy: changedBy, context: context).app
        }
    }
}
