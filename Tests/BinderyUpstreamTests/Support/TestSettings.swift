import BinderyUpstream

extension UpstreamSettings {
    /// Settings where every endpoint behaves as `endpoint` (default: instant, never failing).
    static func uniform(_ endpoint: EndpointSettings = EndpointSettings(latencyMs: 0), seed: UInt64 = 42) -> Self {
        UpstreamSettings(
            seed: seed,
            endpoints: Dictionary(uniqueKeysWithValues: UpstreamEndpoint.allCases.map { ($0, endpoint) })
        )
    }

    /// These settings with one endpoint replaced.
    func with(_ endpoint: UpstreamEndpoint, _ settings: EndpointSettings) -> Self {
        var copy = self
        copy.endpoints[endpoint] = settings
        return copy
    }
}
