/// The fake upstream's settings: the random seed and each endpoint's behaviour.
///
/// Encodes as `{"seed": 42, "endpoints": {"travel": {"latencyMs": 1000, ...}, "hotel": {...},
/// "photos": {...}, "photoDetails": {...}, "courses": {...}, "accounts": {...}}}`; decoding requires every field and validates ranges.
/// Change it at run time with ``merging(patch:)`` (JSON merge patch) or
/// ``UpstreamProvider/update(_:)``.
public struct UpstreamSettings: Sendable, Equatable, Hashable {
    /// The seed of the outcome sequences; the same seed replays the same outcomes. Within
    /// ``seedRange``.
    public var seed: UInt64
    /// The seeds a setting may hold: 0 to 2^63 − 1, what a signed 64-bit integer (every
    /// generated client's `Int`) holds.
    public static let seedRange: ClosedRange<UInt64> = 0...UInt64(Int64.max)
    /// Each endpoint's settings; a missing endpoint behaves as `EndpointSettings()`.
    public var endpoints: [UpstreamEndpoint: EndpointSettings]

    /// Creates settings; endpoints missing from `endpoints` get `EndpointSettings()`.
    public init(seed: UInt64, endpoints: [UpstreamEndpoint: EndpointSettings]) {
        self.seed = seed
        self.endpoints = endpoints
        for endpoint in UpstreamEndpoint.allCases where endpoints[endpoint] == nil {
            self.endpoints[endpoint] = EndpointSettings()
        }
    }

    /// Seed 000's behaviour: one second of latency everywhere, travel fails 25% of the time
    /// with "Bad Network", nothing else fails; seed 42.
    public static let seedDefaults = UpstreamSettings(
        seed: 42,
        endpoints: [
            .travel: EndpointSettings(failureRate: 0.25),
            .hotel: EndpointSettings(),
            .photos: EndpointSettings(),
            .photoDetails: EndpointSettings(),
            .courses: EndpointSettings(),
            .accounts: EndpointSettings(),
        ]
    )

    /// The settings of one endpoint (`EndpointSettings()` when it is missing).
    public func endpoint(_ endpoint: UpstreamEndpoint) -> EndpointSettings {
        endpoints[endpoint] ?? EndpointSettings()
    }
}

extension UpstreamSettings: Codable {
    /// The top-level keys.
    enum CodingKeys: String, CodingKey {
        case seed, endpoints
    }

    /// Encodes `{"seed": ..., "endpoints": {"travel": ..., ...}}`, endpoints in declaration order.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(seed, forKey: .seed)
        var nested = container.nestedContainer(keyedBy: AnyCodingKey.self, forKey: .endpoints)
        for endpoint in UpstreamEndpoint.allCases {
            try nested.encode(self.endpoint(endpoint), forKey: AnyCodingKey(endpoint.rawValue))
        }
    }

    /// Decodes complete settings: every field of every endpoint is required and validated.
    public init(from decoder: any Decoder) throws {
        do {
            let object = try PatchObject(decoder: decoder, path: "")
            self = try UpstreamSettingsPatch(object).complete()
        } catch {
            throw error.asDecodingError(codingPath: decoder.codingPath)
        }
    }
}
