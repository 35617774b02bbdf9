import BinderyBinding
import BinderyRuntime
import BinderyTestSupport
import Testing

/// Writes a page of another site could make a browser send are refused (issue 15, finding 4),
/// and bodies parsers could read differently are 400s.
@Suite("Cross-site writes, simple-request commands, duplicate members, session floods over HTTP")
struct CrossSiteTests {
    /// A client holding the session cookie (a browser), and its cookie header (the client sends
    /// `Host: 127.0.0.1:<port>`, as a browser does).
    private func browser(_ server: TestServer) async throws -> (HTTPTestClient, [String: String]) {
        let client = server.anonymousClient()
        let first = try await client.request("POST", "/api/sessions")
        let cookie = try #require(first.header("Set-Cookie")?.split(separator: ";").first.map(String.init))
        return (client, ["Cookie": cookie])
    }

    @Test func aCookieWriteFromAnotherSiteIs403AndChangesNothing() async throws {
        try await TestServer.with { server in
            let (client, cookie) = try await browser(server)
            for foreign in [
                ["Origin": "http://evil.example"], ["Sec-Fetch-Site": "cross-site"], ["Origin": "null"],
                ["Sec-Fetch-Site": "same-site"], ["Origin": "http://127.0.0.1:1"],
            ] {
                let refused = try await client.request(
                    "PATCH", "/api/views/form", headers: cookie.merging(foreign) { $1 }, body: #"{"phone":"18600000000"}"#,
                    contentType: "application/merge-patch+json"
                )
                #expect(refused.status == 403, "\(foreign)")
                #expect(refused.header("Content-Type") == "application/problem+json")
                let command = try await client.request(
                    "POST", "/api/views/form/commands/clear", headers: cookie.merging(foreign) { $1 }, body: nil
                )
                #expect(command.status == 403, "\(foreign)")
            }
            let after = try await client.request("GET", "/api/views/form", headers: cookie)
            #expect(after.json["inputs"]?.objectValue?["phone"] == "186", "nothing changed")
        }
    }

    @Test func sameOriginCookieWritesAndBearerWritesFromAnywherePass() async throws {
        try await TestServer.with { server in
            let (client, cookie) = try await browser(server)
            let same = cookie.merging(["Origin": "http://127.0.0.1:\(server.port)", "Sec-Fetch-Site": "same-origin"]) { $1 }
            let written = try await client.request(
                "PATCH", "/api/views/form", headers: same, body: #"{"phone":"18612345678"}"#,
                contentType: "application/merge-patch+json"
            )
            #expect(written.status == 200, "\(written.text)")
            let script = try await server.newSession()
            let bearer = try await script.request(
                "PATCH", "/api/views/form", headers: ["Origin": "http://evil.example", "Sec-Fetch-Site": "cross-site"],
                body: #"{"phone":"18612345678"}"#, contentType: "application/merge-patch+json"
            )
            #expect(bearer.status == 200, "a bearer token is not ambient")
            let curl = try await client.request(
                "PATCH", "/api/views/form", headers: cookie, body: #"{"password":"secret1"}"#,
                contentType: "application/merge-patch+json"
            )
            #expect(curl.status == 200, "no Origin, no Sec-Fetch-Site: not a browser acting for another site")
        }
    }

    @Test func aCrossSiteRequestCreatesNoSessionAndSetsNoCookie() async throws {
        try await TestServer.with { server in
            let anonymous = server.anonymousClient()
            for path in ["/api/sessions", "/api/views/form/commands/clear"] {
                let response = try await anonymous.request("POST", path, headers: ["Origin": "http://evil.example"], body: nil)
                #expect(response.status == 403, "\(path)")
                #expect(response.header("Set-Cookie") == nil)
            }
            #expect(server.application.sessions.count == 0)
        }
    }

    @Test func commandsRefuseTheBodiesAnyPageCanSend() async throws {
        try await TestServer.with { server in
            let client = try await server.newSession()
            for type in ["text/plain", "application/x-www-form-urlencoded", "multipart/form-data; boundary=x"] {
                let empty = try await client.request("POST", "/api/views/form/commands/clear", headers: ["Content-Type": type])
                #expect(empty.status == 415, "\(type), empty body")
                let filled = try await client.request("POST", "/api/views/form/commands/clear", body: "a=b", contentType: type)
                #expect(filled.status == 415, "\(type)")
            }
            let plain = try await client.request("POST", "/api/views/form/commands/clear")
            #expect(plain.status != 415, "no body, no Content-Type: \(plain.text)")
        }
    }

    @Test func theUpstreamSettingsRefuseOtherSites() async throws {
        try await TestServer.with { server in
            let anonymous = server.anonymousClient()
            let refused = try await anonymous.request(
                "PATCH", "/api/upstream", headers: ["Origin": "http://evil.example"],
                body: #"{"endpoints":{"travel":{"failureRate":1}}}"#, contentType: "application/merge-patch+json"
            )
            #expect(refused.status == 403)
            let settings = try await anonymous.request("GET", "/api/upstream")
            #expect(settings.json["endpoints"]?.objectValue?["travel"]?.objectValue?["failureRate"] == 0)
        }
    }

    @Test func aMemberRepeatedInOneObjectIs400AndChangesNothing() async throws {
        try await TestServer.with { server in
            let client = try await server.signedInSession(as: .lilei)  // an administrator may PATCH /api/upstream
            for body in [#"{"phone":"18612345678","phone":"1"}"#, #"{"phone":"1","ph\u006fne":"2"}"#] {
                let response = try await client.request(
                    "PATCH", "/api/views/form", body: body, contentType: "application/merge-patch+json"
                )
                #expect(response.status == 400, "\(body)")
                #expect(response.json["title"] == "Duplicate member")
            }
            let nested = try await client.request(
                "PATCH", "/api/upstream", body: #"{"endpoints":{"travel":{"failureRate":1,"failureRate":0}}}"#,
                contentType: "application/merge-patch+json"
            )
            #expect(nested.status == 400)
            let fine = try await client.request(
                "PATCH", "/api/views/form", body: #"{"phone":"18612345678","password":"phone"}"#,
                contentType: "application/merge-patch+json"
            )
            #expect(fine.status == 200, "the same name in a value or in two objects is fine")
            let after = try await client.request("GET", "/api/views/form")
            #expect(after.json["inputs"]?.objectValue?["phone"] == "18612345678")
        }
    }

    @Test func aCookielessFloodGets429AndLeavesOtherSessionsAlone() async throws {
        // Every test client is 127.0.0.1: the per-address eviction is tested on SessionRegistry itself.
        try await TestServer.with(sessions: SessionLimits(maxSessions: 50, perAddress: 50, creationBurst: 20, creationsPerSecond: 0.01)) { server in
            let user = try await server.newSession()
            let anonymous = server.anonymousClient()
            for _ in 0..<40 {
                let read = try await anonymous.request("GET", "/api/views/form")
                #expect(read.status == 200 && read.header("Set-Cookie") == nil, "reading without a session creates none")
            }
            #expect(server.application.sessions.count == 1)
            var statuses: [Int] = []
            for _ in 0..<40 { statuses.append(try await anonymous.request("PATCH", "/api/views/form", body: "{}").status) }
            #expect(statuses.prefix(19).allSatisfy { $0 == 200 }, "the burst (the user's session took one)")
            #expect(statuses.suffix(21).allSatisfy { $0 == 429 })
            let kept = try await user.request("GET", "/api/views/form")
            #expect(kept.status == 200, "the user's session survived the flood")
            #expect(server.application.sessions.count == 20)
        }
    }
}
