import BinderyUpstream
import Foundation
import Testing

@Suite("Settings encode as a JSON object keyed by endpoint")
struct SettingsCodingTests {
    @Test func seedDefaultsEncodeExactly() throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let json = String(decoding: try encoder.encode(UpstreamSettings.seedDefaults), as: UTF8.self)
        let quiet = #"{"failureRate":0,"latencyMs":1000,"malformedRate":0,"timeoutMs":5000,"timeoutRate":0}"#
        let travel = #"{"failureRate":0.25,"latencyMs":1000,"malformedRate":0,"timeoutMs":5000,"timeoutRate":0}"#
        #expect(
            json == """
                {"endpoints":{"accounts":\(quiet),"courses":\(quiet),"hotel":\(quiet),"photoDetails":\(quiet),"photos":\(quiet),"travel":\(travel)},"seed":42}
                """)
    }

    @Test func encodingMatchesTheDocumentedShape() throws {
        let documented = Data(
            """
            {"seed": 42, "endpoints": {
              "travel": {"latencyMs": 1000, "failureRate": 0.25, "malformedRate": 0, "timeoutRate": 0, "timeoutMs": 5000},
              "hotel": {"latencyMs": 1000, "failureRate": 0, "malformedRate": 0, "timeoutRate": 0, "timeoutMs": 5000},
              "photos": {"latencyMs": 1000, "failureRate": 0, "malformedRate": 0, "timeoutRate": 0, "timeoutMs": 5000},
              "photoDetails": {"latencyMs": 1000, "failureRate": 0, "malformedRate": 0, "timeoutRate": 0, "timeoutMs": 5000},
              "courses": {"latencyMs": 1000, "failureRate": 0, "malformedRate": 0, "timeoutRate": 0, "timeoutMs": 5000},
              "accounts": {"latencyMs": 1000, "failureRate": 0, "malformedRate": 0, "timeoutRate": 0, "timeoutMs": 5000}
            }}
            """.utf8)
        let encoded = try JSONEncoder().encode(UpstreamSettings.seedDefaults)
        let expected = try #require(JSONSerialization.jsonObject(with: documented) as? NSDictionary)
        let actual = try #require(JSONSerialization.jsonObject(with: encoded) as? NSDictionary)
        #expect(actual == expected)
        #expect(try JSONDecoder().decode(UpstreamSettings.self, from: documented) == .seedDefaults)
    }

    @Test func encodingRoundTrips() throws {
        var settings = UpstreamSettings.seedDefaults
        settings.seed = UInt64(Int64.max)
        settings.endpoints[.photos] = EndpointSettings(
            latencyMs: 0, failureRate: 0.1, malformedRate: 0.2, timeoutRate: 0.3, timeoutMs: 60_000
        )
        let data = try JSONEncoder().encode(settings)
        #expect(try JSONDecoder().decode(UpstreamSettings.self, from: data) == settings)
    }

    @Test func settingsMissingAnEndpointEncodeItsDefaults() throws {
        var settings = UpstreamSettings.seedDefaults
        settings.endpoints[.hotel] = nil
        let decoded = try JSONDecoder().decode(UpstreamSettings.self, from: JSONEncoder().encode(settings))
        #expect(decoded.endpoints[.hotel] == EndpointSettings())
    }

    @Test func decodingRequiresEveryField() throws {
        let data = Data(#"{"seed": 1, "endpoints": {"travel": {"latencyMs": 1}}}"#.utf8)
        // Endpoints are checked in declaration order, fields in encoding order.
        let error = try #require(throws: DecodingError.self) {
            try JSONDecoder().decode(UpstreamSettings.self, from: data)
        }
        guard case .dataCorrupted(let context) = error else {
            Issue.record("expected dataCorrupted, got \(error)")
            return
        }
        #expect(
            context.underlyingError as? SettingsPatchError
                == SettingsPatchError(path: "endpoints.travel.failureRate", message: "is required"))
    }

    @Test func decodingValidatesRanges() throws {
        var settings = UpstreamSettings.seedDefaults
        settings.endpoints[.travel]?.failureRate = 2
        let data = try JSONEncoder().encode(settings)
        #expect(throws: DecodingError.self) {
            try JSONDecoder().decode(UpstreamSettings.self, from: data)
        }
    }

    @Test func endpointSettingsDecodeOnTheirOwn() throws {
        let data = Data(#"{"latencyMs": 5, "failureRate": 0, "malformedRate": 1, "timeoutRate": 0, "timeoutMs": 9}"#.utf8)
        #expect(
            try JSONDecoder().decode(EndpointSettings.self, from: data)
                == EndpointSettings(latencyMs: 5, malformedRate: 1, timeoutMs: 9))
    }

    @Test func endpointsEncodeAsStringKeys() throws {
        let data = try JSONEncoder().encode([UpstreamEndpoint.photoDetails: 1])
        #expect(String(decoding: data, as: UTF8.self) == #"{"photoDetails":1}"#)
    }
}
