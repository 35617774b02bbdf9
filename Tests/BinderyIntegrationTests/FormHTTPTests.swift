import BinderyRuntime
import Testing

@Suite("Form over HTTP: the README walkthrough and every refusal")
struct FormHTTPTests {
    @Test func walkthrough() async throws {
        try await TestServer.with { server in
            let client = try await server.newSession()
            let first = try await client.request("GET", "/api/views/form")
            #expect(first.status == 200)
            #expect(first.header("ETag") == "\"1\"")
            #expect(first.input("phone") == "186")
            #expect(first.output("output") == "手机号:186, 密码:")
            #expect(first.output("phoneColor") == "red")
            #expect(first.json["commands"]?.objectValue?["clear"]?.objectValue?["enabled"] == false)

            let cached = try await client.request("GET", "/api/views/form", headers: ["If-None-Match": "\"1\""])
            #expect(cached.status == 304)

            let typed = try await client.request(
                "PATCH", "/api/views/form", body: #"{"phone": "18612345678", "password": "passw0rd"}"#,
                contentType: "application/merge-patch+json"
            )
            #expect(typed.status == 200)
            #expect(typed.version == 2)
            #expect(typed.output("phoneValid") == true)
            #expect(typed.output("passwordColor") == "black")
            #expect(typed.json["commands"]?.objectValue?["clear"]?.objectValue?["enabled"] == true)

            let cleared = try await client.request("POST", "/api/views/form/commands/clear")
            #expect(cleared.status == 200)
            #expect(cleared.version == 3)
            #expect(cleared.input("phone") == "186")
            #expect(cleared.input("password") == "")

            let refused = try await client.request("POST", "/api/views/form/commands/clear")
            #expect(refused.status == 409)
            #expect(refused.header("Content-Type") == "application/problem+json")
            #expect(try await client.request("GET", "/api/views/form").version == 3)
        }
    }

    @Test func sessionsAreIsolated() async throws {
        try await TestServer.with { server in
            let alice = try await server.newSession()
            let bob = try await server.newSession()
            _ = try await alice.request("PATCH", "/api/views/form", body: #"{"phone": "13800000000"}"#)
            #expect(try await alice.request("GET", "/api/views/form").input("phone") == "13800000000")
            #expect(try await bob.request("GET", "/api/views/form").input("phone") == "186")
        }
    }

    @Test func cookieSessionIsCreatedOnFirstUseAndUnknownBearerIsRefused() async throws {
        try await TestServer.with { server in
            let anonymous = server.anonymousClient()
            let read = try await anonymous.request("GET", "/api/views/form")
            #expect(read.status == 200)
            #expect(read.header("Set-Cookie") == nil, "reading a screen creates no session")
            let first = try await anonymous.request("PATCH", "/api/views/form", body: #"{"phone": "186"}"#)
            #expect(first.status == 200)
            #expect(first.input("phone") == "186")
            let cookie = try #require(first.header("Set-Cookie"))
            #expect(cookie.contains("HttpOnly"))
            #expect(cookie.contains("SameSite=Strict"))
            let pair = String(cookie.split(separator: ";")[0])
            _ = try await anonymous.request("PATCH", "/api/views/form", headers: ["Cookie": pair], body: #"{"password": "cookie!!"}"#)
            let again = try await anonymous.request("GET", "/api/views/form", headers: ["Cookie": pair])
            #expect(again.input("password") == "cookie!!")
            #expect(again.header("Set-Cookie") == nil)

            let forged = HTTPTestClient(port: server.port, token: String(repeating: "a", count: 32))
            #expect(try await forged.request("GET", "/api/views/form").status == 401)
            // The scheme in any case; a bearer with no token is refused too, not taken for no credential.
            for authorization in ["bearer \(String(repeating: "a", count: 32))", "Bearer", "BEARER   "] {
                let refused = try await anonymous.request("GET", "/api/views/form", headers: ["Authorization": authorization])
                #expect(refused.status == 401, "\(authorization)")
                #expect(refused.header("Set-Cookie") == nil)
            }
            let unknownCookie = try await anonymous.request(
                "GET", "/api/views/form", headers: ["Cookie": "bindery_session=\(String(repeating: "b", count: 32))"]
            )
            #expect(unknownCookie.status == 200)
            #expect(unknownCookie.header("Set-Cookie") == nil, "a read with an unknown cookie creates no session either")
            let unknownCookieWrite = try await anonymous.request(
                "PATCH", "/api/views/form", headers: ["Cookie": "bindery_session=\(String(repeating: "b", count: 32))"], body: "{}"
            )
            #expect(unknownCookieWrite.status == 200)
            #expect(unknownCookieWrite.header("Set-Cookie")?.contains(String(repeating: "b", count: 32)) == false, "never adopted")
        }
    }

    @Test func refusalsLeaveStateUnchanged() async throws {
        try await TestServer.with { server in
            let client = try await server.newSession()
            _ = try await client.request("PATCH", "/api/views/form", body: #"{"phone": "18612345678"}"#)
            let before = try await client.request("GET", "/api/views/form")

            let wrongType = try await client.request("PATCH", "/api/views/form", body: #"{"phone": 42}"#)
            #expect(wrongType.status == 422)
            #expect(wrongType.json["field"] == "phone")

            let unknown = try await client.request("PATCH", "/api/views/form", body: #"{"password": "longenough", "email": "x"}"#)
            #expect(unknown.status == 422)
            #expect(unknown.json["field"] == "email")

            let stale = try await client.request("PATCH", "/api/views/form", headers: ["If-Match": "\"1\""], body: #"{"phone": "1"}"#)
            #expect(stale.status == 412)
            #expect(stale.json["fields"] == ["phone"], "the problem names what changed since")

            let malformed = try await client.request("PATCH", "/api/views/form", body: #"{"phone": "#)
            #expect(malformed.status == 400)

            let notJSON = try await client.request("PATCH", "/api/views/form", body: "phone=1", contentType: "application/x-www-form-urlencoded")
            #expect(notJSON.status == 415)

            let huge = try await client.request("PATCH", "/api/views/form", body: "{\"phone\": \"\(String(repeating: "1", count: 70_000))\"}")
            #expect(huge.status == 413)

            let nowhere = try await client.request("GET", "/api/views/nowhere")
            #expect(nowhere.status == 404)
            let noCommand = try await client.request("POST", "/api/views/form/commands/explode")
            #expect(noCommand.status == 404)

            let wrongMethod = try await client.request("DELETE", "/api/views/form")
            #expect(wrongMethod.status == 405)
            #expect(wrongMethod.header("Allow")?.contains("PATCH") == true)
            let postOnSnapshot = try await client.request("POST", "/api/views/form", body: "{}")
            #expect(postOnSnapshot.status == 405)

            let disabled = try await client.request("POST", "/api/views/form/commands/clear")
            #expect(disabled.status == 409)

            let after = try await client.request("GET", "/api/views/form")
            #expect(after.body == before.body)
            #expect(after.version == before.version)
        }
    }

    @Test func oversizedHeadersAre431AndTheSessionIsUntouched() async throws {
        try await TestServer.with { server in
            let client = try await server.newSession()
            let before = try await client.request("GET", "/api/views/form")
            let huge = try await client.request(
                "PATCH", "/api/views/form", headers: ["X-Padding": String(repeating: "a", count: 40_000)],
                body: #"{"phone": "13800000000"}"#
            )
            #expect(huge.status == 431)
            let after = try await client.request("GET", "/api/views/form")
            #expect(after.body == before.body)
        }
    }

    @Test func aStaleIfMatchMergesUntouchedFieldsAndNamesChangedOnes() async throws {
        try await TestServer.with { server in
            let mine = try await server.newSession()
            let seen = try #require(try await mine.request("GET", "/api/views/form").header("ETag"))
            // Another tab of the same session types a phone number.
            _ = try await mine.request("PATCH", "/api/views/form", body: #"{"phone": "18612345678"}"#)
            let merged = try await mine.request("PATCH", "/api/views/form", headers: ["If-Match": seen], body: #"{"password": "passw0rd"}"#)
            #expect(merged.status == 200)
            #expect(merged.input("phone") == "18612345678" && merged.input("password") == "passw0rd")
            let refused = try await mine.request("PATCH", "/api/views/form", headers: ["If-Match": seen], body: #"{"phone": "1", "password": "x"}"#)
            #expect(refused.status == 412)
            #expect(refused.json["fields"] == ["password", "phone"], "both changed since, in name order")
            #expect(try await mine.request("GET", "/api/views/form").input("password") == "passw0rd")
        }
    }

    @Test func ifMatchWithTheCurrentVersionWrites() async throws {
        try await TestServer.with { server in
            let client = try await server.newSession()
            let current = try await client.request("GET", "/api/views/form")
            let etag = try #require(current.header("ETag"))
            let written = try await client.request("PATCH", "/api/views/form", headers: ["If-Match": etag], body: #"{"phone": "1"}"#)
            #expect(written.status == 200)
            #expect(written.input("phone") == "1")
        }
    }
}
