import Bindery
import BinderyUpstream

extension UpstreamOpenAPI {
    /// The schemas of `/api/upstream`, by name: the fake upstream's settings and a merge patch of
    /// them.
    static var schemas: [String: JSONValue] {
        let endpointNames = UpstreamEndpoint.allCases.map(\.rawValue)
        // Integer literals within a signed 64-bit integer, which every generator's integer holds.
        let seed: JSONValue = [
            "type": "integer", "format": "int64", "minimum": 0, "maximum": .int(Int(UpstreamSettings.seedRange.upperBound)),
        ]
        var patch =
            OpenAPI.object(
                [
                    "seed": seed,
                    "endpoints": OpenAPI.object(
                        Dictionary(uniqueKeysWithValues: endpointNames.map { ($0, OpenAPI.schema("UpstreamEndpointSettingsPatch")) }),
                        required: []
                    ),
                ],
                required: []
            ).objectValue ?? [:]
        patch["description"] = .string(
            "A JSON merge patch (RFC 7396): absent members keep their value; `null` is refused because every setting "
                + "is required. Validated whole before anything changes."
        )
        patch["examples"] = [["endpoints": ["travel": ["failureRate": 1]]]]
        return [
            "UpstreamSettings": OpenAPI.object([
                "seed": seed,
                "endpoints": OpenAPI.object(
                    Dictionary(uniqueKeysWithValues: endpointNames.map { ($0, OpenAPI.schema("UpstreamEndpointSettings")) })
                ),
            ]),
            "UpstreamEndpointSettings": OpenAPI.object(endpoint(described: true)),
            "UpstreamSettingsPatch": .object(patch),
            "UpstreamEndpointSettingsPatch": OpenAPI.object(endpoint(described: false), required: []),
        ]
    }

    /// One endpoint's settings, with or without the rates' descriptions.
    private static func endpoint(described: Bool) -> [String: JSONValue] {
        let milliseconds: JSONValue = ["type": "integer", "minimum": 0, "maximum": 60_000]
        func rate(_ description: String) -> JSONValue {
            var schema: [String: JSONValue] = ["type": "number", "minimum": 0, "maximum": 1]
            if described { schema["description"] = .string(description) }
            return .object(schema)
        }
        return [
            "latencyMs": milliseconds,
            "failureRate": rate("Share of calls failing with 500 `Bad Network`."),
            "malformedRate": rate("Share of calls with a garbled body (502 `Error JSON Data`)."),
            "timeoutRate": rate("Share of calls that hang and fail with 504."),
            "timeoutMs": milliseconds,
        ]
    }
}
