import BinderyTestSupport
import Testing

/// The session cookie is `Secure` when the client reached the server over TLS: always with
/// `--secure-cookies`, and behind a trusted proxy when it says `X-Forwarded-Proto: https`.
@Suite("Secure session cookies behind a TLS proxy")
struct SecureCookieTests {
    private func cookies(_ server: TestServer, headers: [String: String] = [:]) async throws -> [String?] {
        let client = server.anonymousClient()
        let created = try await client.request("POST", "/api/sessions", headers: headers)
        let implicit = try await client.request("PATCH", "/api/views/form", headers: headers, body: "{}")
        #expect(created.status == 201)
        #expect(implicit.status == 200)
        return [created.header("Set-Cookie"), implicit.header("Set-Cookie")]
    }

    @Test func plainHTTPGetsNoSecureAttribute() async throws {
        try await TestServer.with { server in
            for cookie in try await cookies(server, headers: ["X-Forwarded-Proto": "https"]) {
                #expect(cookie?.hasPrefix("bindery_session=") == true)
                #expect(cookie?.contains("Secure") == false, "an untrusted X-Forwarded-Proto changes nothing")
            }
        }
    }

    @Test func secureCookiesAlwaysAddIt() async throws {
        try await TestServer.with(secureCookies: true) { server in
            for cookie in try await cookies(server) {
                #expect(cookie?.hasSuffix("; HttpOnly; SameSite=Strict; Secure") == true, "\(cookie ?? "none")")
            }
        }
    }

    @Test func aTrustedProxySayingHTTPSAddsIt() async throws {
        try await TestServer.with(trustForwardedFor: true) { server in
            for cookie in try await cookies(server, headers: ["X-Forwarded-Proto": "https"]) {
                #expect(cookie?.hasSuffix("; Secure") == true, "\(cookie ?? "none")")
            }
            for cookie in try await cookies(server, headers: ["X-Forwarded-Proto": "http"]) {
                #expect(cookie?.contains("Secure") == false)
            }
        }
    }
}
