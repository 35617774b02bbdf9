import BinderyUpstream
import Foundation
import Testing

@Suite("Settings accept JSON merge patches")
struct SettingsPatchTests {
    let base = UpstreamSettings.seedDefaults

    func merge(_ patch: String) throws(SettingsPatchError) -> UpstreamSettings {
        try base.merging(patch: Data(patch.utf8))
    }

    @Test func emptyPatchChangesNothing() throws {
        #expect(try merge("{}") == base)
        #expect(try merge(#"{"endpoints": {}}"#) == base)
        #expect(try merge(#"{"endpoints": {"hotel": {}}}"#) == base)
    }

    @Test func patchReplacesOnlyTheFieldsItNames() throws {
        let merged = try merge(#"{"seed": 7, "endpoints": {"travel": {"failureRate": 1, "latencyMs": 0}}}"#)
        var expected = base
        expected.seed = 7
        expected.endpoints[.travel]?.failureRate = 1
        expected.endpoints[.travel]?.latencyMs = 0
        #expect(merged == expected)
    }

    @Test func patchAcceptsBoundsAndIntegerRates() throws {
        let merged = try merge(
            """
            {"endpoints": {"photos": {"latencyMs": 60000, "timeoutMs": 0, "failureRate": 0,
             "malformedRate": 1, "timeoutRate": 0.5}}}
            """)
        #expect(
            merged.endpoints[.photos]
                == EndpointSettings(
                    latencyMs: 60_000, failureRate: 0, malformedRate: 1, timeoutRate: 0.5, timeoutMs: 0
                ))
        #expect(try merge(#"{"seed": 9223372036854775807}"#).seed == UInt64(Int64.max))
    }

    @Test(arguments: [
        (
            #"{"endpoints": {"travel": {"failureRate": 1.5}}}"#, "endpoints.travel.failureRate",
            "must be a number from 0 to 1, got 1.5"
        ),
        (
            #"{"endpoints": {"travel": {"malformedRate": -0.1}}}"#, "endpoints.travel.malformedRate",
            "must be a number from 0 to 1, got -0.1"
        ),
        (
            #"{"endpoints": {"hotel": {"latencyMs": 60001}}}"#, "endpoints.hotel.latencyMs",
            "must be an integer from 0 to 60000 milliseconds, got 60001"
        ),
        (
            #"{"endpoints": {"hotel": {"timeoutMs": -1}}}"#, "endpoints.hotel.timeoutMs",
            "must be an integer from 0 to 60000 milliseconds, got -1"
        ),
        (
            #"{"endpoints": {"hotel": {"latencyMs": "1000"}}}"#, "endpoints.hotel.latencyMs",
            "must be an integer from 0 to 60000 milliseconds"
        ),
        (
            #"{"endpoints": {"hotel": {"latencyMs": 10.5}}}"#, "endpoints.hotel.latencyMs",
            "must be an integer from 0 to 60000 milliseconds"
        ),
        (
            #"{"endpoints": {"photos": {"timeoutRate": true}}}"#, "endpoints.photos.timeoutRate",
            "must be a number from 0 to 1"
        ),
        (
            #"{"endpoints": {"photos": {"timeoutRate": null}}}"#, "endpoints.photos.timeoutRate",
            "must not be null: every setting is required"
        ),
        (#"{"endpoints": {"photos": null}}"#, "endpoints.photos", "must not be null: every setting is required"),
        (#"{"endpoints": null}"#, "endpoints", "must not be null: every setting is required"),
        (#"{"seed": null}"#, "seed", "must not be null: every setting is required"),
        (#"{"seed": -1}"#, "seed", "must be an integer from 0 to 9223372036854775807"),
        (#"{"seed": 9223372036854775808}"#, "seed", "must be an integer from 0 to 9223372036854775807"),
        (#"{"seed": "42"}"#, "seed", "must be an integer from 0 to 9223372036854775807"),
        (#"{"seeds": 1}"#, "seeds", "unknown key; expected one of seed, endpoints"),
        (
            #"{"endpoints": {"flights": {}}}"#, "endpoints.flights",
            "unknown key; expected one of travel, hotel, photos, photoDetails, courses, accounts"
        ),
        (
            #"{"endpoints": {"travel": {"latency": 5}}}"#, "endpoints.travel.latency",
            "unknown key; expected one of latencyMs, failureRate, malformedRate, timeoutRate, timeoutMs"
        ),
        (#"{"endpoints": []}"#, "endpoints", "must be a JSON object"),
        (#"{"endpoints": {"travel": 1}}"#, "endpoints.travel", "must be a JSON object"),
        ("[]", "", "must be a JSON object"),
        ("null", "", "must be a JSON object"),
        (#"{"seed": 1"#, "", "the patch is not valid JSON"),
        ("", "", "the patch is not valid JSON"),
    ])
    func patchIsRefusedNamingTheField(patch: String, path: String, message: String) {
        #expect(throws: SettingsPatchError(path: path, message: message)) {
            try merge(patch)
        }
    }

    @Test func refusedPatchChangesNothing() throws {
        let provider = UpstreamProvider()
        let patch = Data(#"{"seed": 7, "endpoints": {"hotel": {"latencyMs": 5}, "travel": {"failureRate": 2}}}"#.utf8)
        #expect(throws: SettingsPatchError.self) {
            try provider.update(patch: patch)
        }
        #expect(provider.settings == .seedDefaults)
        let merged = try provider.update(patch: Data(#"{"endpoints": {"hotel": {"latencyMs": 5}}}"#.utf8))
        #expect(merged.endpoint(.hotel).latencyMs == 5)
        #expect(provider.settings == merged)
    }

    @Test func errorDescribesPathAndMessage() {
        let error = SettingsPatchError(path: "endpoints.travel.failureRate", message: "must be a number from 0 to 1")
        #expect(error.description == "endpoints.travel.failureRate: must be a number from 0 to 1")
        #expect(
            SettingsPatchError(path: "", message: "the patch is not valid JSON").description
                == "the patch is not valid JSON")
    }
}
