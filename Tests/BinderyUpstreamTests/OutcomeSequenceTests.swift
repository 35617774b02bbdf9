import BinderyUpstream
import Testing

@Suite("Outcomes are drawn from seeded sequences")
struct OutcomeSequenceTests {
    /// The codes of `count` travel calls: 200 for a success.
    func travelCodes(_ provider: UpstreamProvider, count: Int) async -> [Int] {
        var codes: [Int] = []
        for _ in 0..<count {
            do {
                _ = try await provider.travel()
                codes.append(200)
            } catch {
                codes.append(error.code)
            }
        }
        return codes
    }

    /// Settings like the seed's (travel fails 25% of the time) without latency.
    func seedLike(seed: UInt64 = 42) -> UpstreamSettings {
        UpstreamSettings.uniform(seed: seed).with(.travel, EndpointSettings(latencyMs: 0, failureRate: 0.25))
    }

    @Test func sameSeedGivesSameSequence() async {
        let first = await travelCodes(UpstreamProvider(settings: seedLike()), count: 60)
        let second = await travelCodes(UpstreamProvider(settings: seedLike()), count: 60)
        let other = await travelCodes(UpstreamProvider(settings: seedLike(seed: 7)), count: 60)
        #expect(first == second)
        #expect(first != other)
        #expect(Set(first) == [200, 500])
    }

    @Test func failureRateQuarterOver400Calls() async {
        let codes = await travelCodes(UpstreamProvider(settings: seedLike()), count: 400)
        let failures = codes.filter { $0 == 500 }.count
        #expect(failures == 93)  // seed 42's exact count: 23.25%
        #expect((80...120).contains(failures))
        #expect(codes.allSatisfy { $0 == 200 || $0 == 500 })
    }

    @Test func endpointsDoNotDisturbEachOther() async throws {
        let alone = await travelCodes(UpstreamProvider(settings: seedLike()), count: 30)
        let interleaved = UpstreamProvider(settings: seedLike().with(.hotel, EndpointSettings(latencyMs: 0, failureRate: 0.5)))
        var codes: [Int] = []
        for _ in 0..<30 {
            _ = try? await interleaved.hotels()
            codes += await travelCodes(interleaved, count: 1)
            _ = try? await interleaved.photos()
        }
        #expect(codes == alone)
    }

    @Test func newSeedRestartsSequencesAndSameSeedKeepsThem() async {
        let provider = UpstreamProvider(settings: seedLike())
        let first = await travelCodes(provider, count: 20)
        var settings = provider.settings
        settings.endpoints[.travel]?.latencyMs = 0
        provider.update(settings)
        let continued = await travelCodes(provider, count: 20)
        let fresh = await travelCodes(UpstreamProvider(settings: seedLike()), count: 40)
        #expect(first + continued == fresh)

        settings.seed = 7
        provider.update(settings)
        #expect(await travelCodes(provider, count: 20) == travelCodes(UpstreamProvider(settings: seedLike(seed: 7)), count: 20))
        settings.seed = 42
        provider.update(settings)
        #expect(await travelCodes(provider, count: 20) == first)
    }

    @Test func changingRatesKeepsTheSequenceAligned() async {
        // Every call draws the same amount, so the failures at rate 0.25 are a subset of those at 0.5.
        let quarter = await travelCodes(UpstreamProvider(settings: seedLike()), count: 100)
        let half = await travelCodes(
            UpstreamProvider(settings: seedLike().with(.travel, EndpointSettings(latencyMs: 0, failureRate: 0.5))),
            count: 100
        )
        for (low, high) in zip(quarter, half) where low == 500 {
            #expect(high == 500)
        }
    }

    @Test func ratesOfOneAndZeroInjectOneOutcome() async {
        let failing = UpstreamProvider(settings: .uniform(EndpointSettings(latencyMs: 0, failureRate: 1)))
        #expect(await travelCodes(failing, count: 20) == Array(repeating: 500, count: 20))
        let healthy = UpstreamProvider(settings: .uniform())
        #expect(await travelCodes(healthy, count: 20) == Array(repeating: 200, count: 20))
    }

    @Test func malformedAnswersAreErrorJSONData() async {
        let provider = UpstreamProvider(settings: .uniform(EndpointSettings(latencyMs: 0, malformedRate: 1)))
        for _ in 0..<12 {
            await #expect(throws: UpstreamError(endpoint: .travel, code: 502, message: "Error JSON Data")) {
                try await provider.travel()
            }
            await #expect(throws: UpstreamError.badJSON(.photoDetails)) {
                try await provider.photoDetails(id: "p01")
            }
        }
    }

    @Test func seedDefaultsFollowTheSeedArticle() {
        let defaults = UpstreamSettings.seedDefaults
        #expect(defaults.seed == 42)
        for endpoint in UpstreamEndpoint.allCases {
            let settings = defaults.endpoint(endpoint)
            #expect(settings.latencyMs == 1000)
            #expect(settings.failureRate == (endpoint == .travel ? 0.25 : 0))
            #expect(settings.malformedRate == 0 && settings.timeoutRate == 0)
        }
    }
}
