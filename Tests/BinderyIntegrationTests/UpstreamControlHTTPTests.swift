import Bindery
import SeedApps
import Testing

/// `PATCH /api/upstream` changes the fake upstream for every session: only an administrator may,
/// unless the app says anyone may (`--open-upstream-control`); `GET` stays open (issue 37).
@Suite("The upstream's settings: changed by administrators only")
struct UpstreamControlHTTPTests {
    static let failing = #"{"endpoints": {"travel": {"failureRate": 1}}}"#

    /// The travel endpoint's failure rate as `GET /api/upstream` shows it to anyone.
    static func travelFailureRate(_ server: TestServer) async throws -> JSONValue? {
        let settings = try await server.anonymousClient().request("GET", "/api/upstream")
        #expect(settings.status == 200)
        return settings.json["endpoints"]?.objectValue?["travel"]?.objectValue?["failureRate"]
    }

    @Test func onlyAnAdministratorChangesTheUpstreamAndARefusalChangesNothing() async throws {
        try await TestServer.with { server in
            let anonymous = try await server.newSession()
            let refused = try await anonymous.request("PATCH", "/api/upstream", body: Self.failing, contentType: "application/merge-patch+json")
            #expect(refused.status == 401, "\(refused.text)")
            #expect(refused.header("WWW-Authenticate") == "Bearer")
            #expect(refused.json["title"] == "Sign-in required")
            let user = try await server.signedInSession(as: .hanmeimei)
            let forbidden = try await user.request("PATCH", "/api/upstream", body: Self.failing, contentType: "application/merge-patch+json")
            #expect(forbidden.status == 403, "\(forbidden.text)")
            #expect(forbidden.json["title"] == "Not allowed")
            #expect(try await Self.travelFailureRate(server) == 0, "nothing changed")

            let admin = try await server.signedInSession(as: .lilei)
            let changed = try await admin.request("PATCH", "/api/upstream", body: Self.failing, contentType: "application/merge-patch+json")
            #expect(changed.status == 200, "\(changed.text)")
            #expect(try await Self.travelFailureRate(server) == 1)
        }
    }

    @Test func anAppMayLetEveryoneChangeIt() async throws {
        try await TestServer.with(app: { context in
            SeedApps(upstream: .fast, upstreamChangedBy: .everyone, recipes: .recipes(), context: context).app
        }) { server in
            let anonymous = try await server.newSession()
            let changed = try await anonymous.request("PATCH", "/api/upstream", body: Self.failing, contentType: "application/merge-patch+json")
            #expect(changed.status == 200, "\(changed.text)")
            #expect(try await Self.travelFailureRate(server) == 1)
        }
    }
}
