import BinderyRuntime
import BinderyUpstream
import Clocks
import Testing

@Suite("List over HTTP: async commands against a slow, failing upstream")
struct ListHTTPTests {
    @Test func loadWaitsWhenAskedAndShowsScenicThenHotelCells() async throws {
        try await TestServer.with { server in
            let client = try await server.newSession()
            let loaded = try await client.request("POST", "/api/views/list/commands/load", headers: ["Prefer": "wait=10"])
            #expect(loaded.status == 200)
            guard case .array(let items)? = loaded.output("items") else {
                Issue.record("no items in \(loaded.text)")
                return
            }
            let kinds = items.compactMap { $0.objectValue?["outputs"]?.objectValue?["kind"]?.stringValue }
            #expect(kinds.first == "scenic")
            #expect(kinds.last == "hotel")
            let firstHotel = try #require(kinds.firstIndex(of: "hotel"))
            #expect(kinds[..<firstHotel].allSatisfy { $0 == "scenic" })
            #expect(kinds[firstHotel...].allSatisfy { $0 == "hotel" })
            let keys = Set(items.compactMap { $0.objectValue?["outputs"]?.objectValue.map { Set($0.keys) } })
            #expect(keys.count == 1, "one cell shape for both kinds")

            let first = try #require(items.first?.objectValue?["id"]?.stringValue)
            let cell = try await client.request("GET", "/api/views/list/items/\(first)")
            #expect(cell.status == 200)
            #expect(cell.output("kind") == "scenic")
            let selected = try await client.request("POST", "/api/views/list/commands/select", body: #"{"id": "\#(first)"}"#)
            #expect(selected.json["navigate"] == .string("/list/items/\(first)"))
            let unknown = try await client.request("POST", "/api/views/list/commands/select", body: #"{"id": "nope"}"#)
            #expect(unknown.status == 422)
        }
    }

    @Test func withoutWaitingTheAnswerIs202ThenTheResultArrives() async throws {
        // The upstream waits on a test clock: the load stays running until the test moves time.
        let clock = TestClock()
        try await TestServer.with(upstream: UpstreamSettingsFixture.latency(1000), clock: clock) { server in
            let client = try await server.newSession()
            let started = try await client.request("POST", "/api/views/list/commands/load")
            #expect(started.status == 202)
            #expect(started.json["commands"]?.objectValue?["load"]?.objectValue?["executing"] == true)

            let second = try await client.request("POST", "/api/views/list/commands/load")
            #expect(second.status == 409)
            #expect(second.json["title"] == "Command already executing")

            let version = try #require(started.version)
            // A TestClock's step yields to background-priority tasks, which a full parallel test
            // run starves for many seconds: the socket waits a minute before calling it a hang.
            let latest = try await clock.advancing(by: .seconds(1)) {
                try await client.request(
                    "GET", "/api/views/list?after=\(version)", headers: ["Prefer": "wait=50"], timeout: .seconds(60)
                )
            }
            #expect(latest.status == 200)
            #expect(
                latest.json["commands"]?.objectValue?["load"]?.objectValue?["executing"] == false,
                "\(started.version ?? 0) -> \(latest.text.prefix(300))")
            guard case .array(let items)? = latest.output("items") else {
                Issue.record("no items")
                return
            }
            #expect(!items.isEmpty)
        }
    }

    @Test func failureInjectedThroughTheUpstreamEndpointIsA502AndAnOutput() async throws {
        try await TestServer.with { server in
            let client = try await server.signedInSession(as: .lilei)  // an administrator changes the upstream
            let patched = try await client.request(
                "PATCH", "/api/upstream", body: #"{"endpoints": {"travel": {"failureRate": 1}}}"#,
                contentType: "application/merge-patch+json"
            )
            #expect(patched.status == 200)
            #expect(patched.json["endpoints"]?.objectValue?["travel"]?.objectValue?["failureRate"] == 1)

            let failed = try await client.request("POST", "/api/views/list/commands/load", headers: ["Prefer": "wait=10"])
            #expect(failed.status == 502)
            #expect(failed.json["detail"] == "Bad Network")
            let list = try await client.request("GET", "/api/views/list")
            #expect(list.output("items") == .array([]))
            #expect(list.output("error")?.objectValue?["message"] == "Bad Network")
            #expect(list.json["commands"]?.objectValue?["load"]?.objectValue?["error"]?.objectValue?["code"] == 500)

            let invalid = try await client.request("PATCH", "/api/upstream", body: #"{"endpoints": {"travel": {"failureRate": 2}}}"#)
            #expect(invalid.status == 422)
            #expect(invalid.json["field"] == "endpoints.travel.failureRate")
        }
    }

    @Test func rightFooterFollowsTheCurrentCity() async throws {
        try await TestServer.with { server in
            let client = try await server.newSession()
            let loaded = try await client.request("POST", "/api/views/list/commands/load", headers: ["Prefer": "wait=10"])
            guard case .array(let items)? = loaded.output("items"),
                let scenic = items.first?.objectValue?["outputs"]?.objectValue
            else {
                Issue.record("no items")
                return
            }
            let footer = scenic["rightFooter"]?.stringValue
            let cities = loaded.output("cities")
            guard case .array(let cityList)? = cities, cityList.count > 1 else {
                Issue.record("no cities")
                return
            }
            let current = loaded.input("currentCityId")?.intValue
            let other = try #require(cityList.compactMap { $0.objectValue?["id"]?.intValue }.first { $0 != current })
            let moved = try await client.request("PATCH", "/api/views/list", body: #"{"currentCityId": \#(other)}"#)
            #expect(moved.status == 200)
            guard case .array(let after)? = moved.output("items") else { return }
            let changed = after.first?.objectValue?["outputs"]?.objectValue?["rightFooter"]?.stringValue
            #expect(footer != nil && changed != nil)
            #expect(moved.version.map { $0 > (loaded.version ?? 0) } == true)
            let invalid = try await client.request("PATCH", "/api/views/list", body: #"{"currentCityId": "beijing"}"#)
            #expect(invalid.status == 422)
        }
    }
}

/// Upstream settings for HTTP tests.
enum UpstreamSettingsFixture {
    /// Every endpoint at `milliseconds` latency, no random failures.
    static func latency(_ milliseconds: Int) -> BinderyUpstream.UpstreamSettings {
        var settings = BinderyUpstream.UpstreamSettings.fast
        for endpoint in BinderyUpstream.UpstreamEndpoint.allCases {
            settings.endpoints[endpoint]?.latencyMs = milliseconds
        }
        return settings
    }
}
