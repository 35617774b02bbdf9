/// The seeded outcome sequences of all endpoints: one generator per endpoint, so that calls to
/// one endpoint never change the outcomes of another.
struct OutcomeSource: Sendable {
    /// The seed the generators started from.
    private(set) var seed: UInt64
    /// Each endpoint's generator.
    private var generators: [UpstreamEndpoint: SplitMix64] = [:]

    /// Creates the sequences of `seed`.
    init(seed: UInt64) {
        self.seed = seed
        reseed(seed)
    }

    /// Restarts every endpoint's sequence from `seed`.
    mutating func reseed(_ seed: UInt64) {
        self.seed = seed
        for endpoint in UpstreamEndpoint.allCases {
            generators[endpoint] = SplitMix64(seed: seed ^ endpoint.streamSalt)
        }
    }

    /// Draws the next outcome of `endpoint`.
    mutating func draw(for endpoint: UpstreamEndpoint, settings: EndpointSettings) -> CallOutcome {
        var generator = generators[endpoint] ?? SplitMix64(seed: seed ^ endpoint.streamSalt)
        let outcome = CallOutcome.draw(using: &generator, settings: settings)
        generators[endpoint] = generator
        return outcome
    }
}
