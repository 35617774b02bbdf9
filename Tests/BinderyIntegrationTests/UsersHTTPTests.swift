import Bindery
import BinderyRuntime
import BinderyTestSupport
import Crypto
import Foundation
import Testing

/// Users over HTTP: sign-in replaces the token and keeps the state, access rules refuse with 401
/// and 403 and change nothing, a user's records are theirs alone and outlive their sessions,
/// sign-out ends a session's streams and token (issue 37).
@Suite("Users over HTTP: sign-in, access rules, a user's own data")
struct UsersHTTPTests {
    /// Signs `client`'s session in as `name` (whose password is "secret-<name>"): the client
    /// with the new token.
    static func signIn(_ client: HTTPTestClient, as name: String) async throws -> HTTPTestClient {
        let answer = try await client.request(
            "POST", "/api/session/sign-in", body: #"{"username": "\#(name)", "password": "secret-\#(name)"}"#
        )
        #expect(answer.status == 200, "\(answer.text)")
        let token = try #require(answer.json["token"]?.stringValue)
        #expect(answer.json["user"]?.objectValue?["id"] == .string(name))
        var signedIn = client
        signedIn.token = token
        return signedIn
    }

    @Test func signingInReplacesTheTokenKeepsTheStateAndRefusesTheOldToken() async throws {
        try await TestServer.with(app: NotesViewModel.app()) { server in
            let before = try await server.newSession()
            let ada = try await Self.signIn(before, as: "ada")
            #expect(ada.token != before.token)
            let stale = try await before.request("GET", "/api/session")
            #expect(stale.status == 401, "the token from before the sign-in is refused")
            #expect(stale.header("WWW-Authenticate") == "Bearer")
            let who = try await ada.request("GET", "/api/session")
            #expect(who.json["user"]?.objectValue?["name"] == "Ada")
            #expect(who.json["collaborator"]?.objectValue?["name"] == "Ada", "presence shows the user's name")
            // Signed in as someone else already: sign out first; nothing changes.
            let other = try await ada.request("POST", "/api/session/sign-in", body: #"{"username": "grace", "password": "secret-grace"}"#)
            #expect(other.status == 409)
            #expect(try await ada.request("GET", "/api/session").json["user"]?.objectValue?["id"] == "ada")
        }
    }

    @Test func streamsAndLongPollsOpenedWithTheOldTokenAreSentNothingAfterTheSignIn() async throws {
        try await TestServer.with { server in
            let before = try await server.newSession()
            let old = try await before.events("/api/views/form/events")
            let first = try #require(try await old.next())
            #expect(first.output("signedInAs") == .null, "anonymous")
            let version = try #require(first.id)
            async let poll = before.request("GET", "/api/views/form?after=\(version)", headers: ["Prefer": "wait=30"])
            try await Task.sleep(for: .milliseconds(200))  // most often, the long-poll is waiting by now
            let answer = try await before.request(
                "POST", "/api/session/sign-in", body: #"{"username": "13800000000", "password": "hunter22"}"#
            )
            #expect(answer.status == 200)
            // Waiting when the sign-in came, it ends with nothing new; arrived after, it is refused.
            let polled = try await poll
            #expect([304, 401].contains(polled.status), "the old token's long-poll: \(polled.status) \(polled.text)")
            #expect(!polled.text.contains("Han Meimei"))
            #expect(try await before.request("GET", "/api/views/form/events").status == 401, "no stream opens with it again")
            let user = HTTPTestClient(port: server.port, token: try #require(answer.json["token"]?.stringValue))
            let new = try await user.events("/api/views/form/events")
            #expect(try await new.next()?.output("signedInAs") == "Han Meimei")
            let typed = try await user.request("PATCH", "/api/views/form", body: #"{"phone": "13800000009"}"#)
            #expect(try await new.next()?.id == typed.version, "the new token's stream gets what follows")
            // Signing out ends every stream of the session, the old one too: all it was ever sent.
            #expect(try await user.request("POST", "/api/session/sign-out").status == 204)
            var seen: [EventStreamReader.Event] = []
            while let event = try await old.next() { seen.append(event) }
            #expect(
                !seen.contains { $0.output("signedInAs") == "Han Meimei" || $0.input("phone") == "13800000009" },
                "the old token's stream was sent nothing after the sign-in: \(seen.map(\.id))")
        }
    }

    @Test func theLoginFormsSignInAnswersTheNewTokenAndKeepsTheForm() async throws {
        try await TestServer.with { server in
            let session = try await server.newSession()
            let typed = try await session.request("PATCH", "/api/views/form", body: #"{"phone": "13800000000", "password": "hunter22"}"#)
            #expect(typed.json["commands"]?.objectValue?["signIn"]?.objectValue?["enabled"] == true)
            let answer = try await session.request("POST", "/api/views/form/commands/signIn", headers: ["Prefer": "wait=0"])
            #expect(answer.status == 200, "answered once done, whatever Prefer says: \(answer.text)")
            let token = try #require(answer.json["token"]?.stringValue)
            #expect(answer.header("Set-Cookie")?.hasPrefix("bindery_session=\(token);") == true)
            #expect(answer.header("Cache-Control") == "no-store")
            #expect(answer.output("signedInAs") == "Han Meimei")
            #expect(answer.input("phone") == "13800000000", "the session kept its state")
            #expect(answer.input("password") == "", "the password does not stay in the form")
            #expect(try await session.request("GET", "/api/views/form").status == 401)
            let wrong = try await HTTPTestClient(port: server.port, token: token)
                .request("PATCH", "/api/views/form", body: #"{"password": "not-hunter22"}"#)
            #expect(wrong.status == 200)
        }
    }

    @Test func wrongCredentialsAreOneAnswerAndTooManyAre429() async throws {
        try await TestServer.with(app: NotesViewModel.app()) { server in
            let client = server.anonymousClient()
            let unknown = try await client.request("POST", "/api/session/sign-in", body: #"{"username": "eve", "password": "x"}"#)
            let wrong = try await client.request("POST", "/api/session/sign-in", body: #"{"username": "ada", "password": "x"}"#)
            #expect(unknown.status == 422)
            #expect(wrong.status == 422)
            #expect(unknown.json["detail"] == wrong.json["detail"], "an unknown account reads as a wrong password")
            #expect(unknown.header("Set-Cookie") == nil, "a failed attempt makes no session")
            for _ in 0..<4 {
                let failed = try await client.request("POST", "/api/session/sign-in", body: #"{"username": "ADA", "password": "y"}"#)
                #expect(failed.status == 422)
            }
            let limited = try await client.request("POST", "/api/session/sign-in", body: #"{"username": "ada", "password": "secret-ada"}"#)
            #expect(limited.status == 429, "five failures lock the account for a while, the right password too")
            #expect(Int(limited.header("Retry-After") ?? "") ?? 0 > 0)
            let others = try await client.request("POST", "/api/session/sign-in", body: #"{"username": "grace", "password": "secret-grace"}"#)
            #expect(others.status == 200, "another account is not locked")
        }
    }

    @Test func aSignInFromAnotherSiteIsRefused() async throws {
        try await TestServer.with(app: NotesViewModel.app()) { server in
            let client = server.anonymousClient()
            for foreign in [["Origin": "http://evil.example"], ["Sec-Fetch-Site": "cross-site"]] {
                let refused = try await client.request(
                    "POST", "/api/session/sign-in", headers: foreign, body: #"{"username": "ada", "password": "secret-ada"}"#
                )
                #expect(refused.status == 403)
                #expect(refused.header("Set-Cookie") == nil)
            }
        }
    }

    @Test func anAnonymousSessionIsRefusedEverywhereWith401AndNothingChanges() async throws {
        try await TestServer.with(app: NotesViewModel.app()) { server in
            let anonymous = try await server.newSession()
            for (method, path, body) in [
                ("GET", "/api/views/notes", nil), ("GET", "/api/views/notes/events", nil),
                ("GET", "/api/views/notes/versions", nil), ("POST", "/api/views/notes/commands/add", #"{"title": "x"}"#),
                ("PUT", "/api/views/notes/presence", #"{"field": null}"#),
            ] as [(String, String, String?)] {
                let refused = try await anonymous.request(method, path, body: body)
                #expect(refused.status == 401, "\(method) \(path)")
                #expect(refused.header("WWW-Authenticate") == "Bearer", "\(method) \(path)")
                #expect(refused.json["title"] == "Sign-in required", "\(method) \(path)")
            }
            let catalogue = try await anonymous.request("GET", "/api/views")
            #expect(catalogue.json["views"]?.arrayValue?.isEmpty == true, "the catalogue lists nothing it may not read")
            let ada = try await Self.signIn(server.newSession(), as: "ada")
            #expect(try await ada.request("GET", "/api/views").json["views"]?.arrayValue?.count == 1)
        }
    }

    @Test func anotherUsersNoteIsNotFoundOnEveryRouteAndNothingChanges() async throws {
        try await TestServer.with(app: NotesViewModel.app()) { server in
            let ada = try await Self.signIn(server.newSession(), as: "ada")
            let added = try await ada.request("POST", "/api/views/notes/commands/add", headers: ["Prefer": "wait=5"], body: #"{"title": "Ada's"}"#)
            let id = try #require(added.json["navigate"]?.stringValue?.split(separator: "/").last.map(String.init))
            let path = "/api/views/notes/\(id)"
            let before = try await ada.request("GET", path)
            #expect(before.status == 200)
            let grace = try await Self.signIn(server.newSession(), as: "grace")
            // Another user's note does not exist for them: 404 everywhere, nothing learned, nothing changed.
            let routes: [(String, String, String?)] = [
                ("GET", path, nil), ("PATCH", path, #"{"title": "mine now"}"#),
                ("POST", "\(path)/commands/delete", nil), ("GET", "\(path)/events", nil),
                ("GET", "\(path)/versions", nil), ("GET", "\(path)/inputs/text", nil),
                ("POST", "\(path)/inputs/text/ops", #"{"id": "g1", "base": 1, "ops": [{"p": 0, "si": "x"}]}"#),
                ("PUT", "\(path)/presence", #"{"field": "text"}"#), ("GET", "\(path)/presence", nil),
            ]
            for (method, route, body) in routes {
                let refused = try await grace.request(method, route, body: body)
                #expect(refused.status == 404, "\(method) \(route): \(refused.text)")
            }
            let events = try await grace.events("/api/events?views=notes/\(id)")
            let problem = try #require(try await events.next())
            #expect(problem.type == "problem")
            #expect(problem.data["problem"]?.objectValue?["status"] == 404)
            #expect(try await grace.request("GET", "/api/views/notes").output("titles") == [])
            let after = try await ada.request("GET", path)
            #expect(after.text == before.text, "Ada's note is as it was")
            let anonymous = try await server.newSession()
            for (method, route, body) in routes {
                #expect(try await anonymous.request(method, route, body: body).status == 401, "\(method) \(route)")
            }
        }
    }

    @Test func aUsersNotesAreLiveInEveryOneOfTheirSessionsAndOutliveThem() async throws {
        try await TestServer.with(app: NotesViewModel.app()) { server in
            let phone = try await Self.signIn(server.newSession(), as: "ada")
            let laptop = try await Self.signIn(server.newSession(), as: "ada")
            let watching = try await laptop.events("/api/views/notes/events")
            #expect(try await watching.next()?.output("titles") == [])
            _ = try await phone.request("POST", "/api/views/notes/commands/add", headers: ["Prefer": "wait=5"], body: #"{"title": "Milk"}"#)
            var seen: JSONValue?
            while seen != ["Milk"], let event = try await watching.next() { seen = event.output("titles") }
            #expect(seen == ["Milk"], "the laptop sees what the phone added")
            // Signing out everywhere ends both sessions; the notes stay the user's.
            let ended = try await phone.request("POST", "/api/session/sign-out-everywhere")
            #expect(ended.json["ended"] == 2)
            #expect(try await watching.next().map { $0.type == "end" || $0.data.isEmpty } ?? true, "the laptop's stream ends")
            #expect(try await laptop.request("GET", "/api/views/notes").status == 401)
            let later = try await Self.signIn(server.newSession(), as: "ada")
            #expect(try await later.request("GET", "/api/views/notes").output("titles") == ["Milk"])
        }
    }

    @Test func signingOutEndsTheSessionAndItsToken() async throws {
        try await TestServer.with(app: NotesViewModel.app()) { server in
            let ada = try await Self.signIn(server.newSession(), as: "ada")
            let stream = try await ada.events("/api/views/notes/events")
            _ = try await stream.next()
            let out = try await ada.request("POST", "/api/session/sign-out")
            #expect(out.status == 204)
            #expect(out.header("Set-Cookie")?.contains("Max-Age=0") == true)
            var ended = false
            while let event = try await stream.next() { ended = ended || event.type == "end" }
            #expect(try await ada.request("GET", "/api/session").status == 401)
            #expect(try await ada.request("POST", "/api/session/sign-out-everywhere").status == 401)
            _ = ended
        }
    }

    @Test func aSensitiveInputNeverReachesTheStore() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("bindery-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let password = "Tr0ub4dor&3-\(UUID().uuidString.prefix(8))"
        let token = try await TestServer.with(store: try SQLiteStore(path: directory.appendingPathComponent("b.sqlite").path)) { server in
            let session = try await server.newSession()
            for round in 0..<3 {
                let typed = try await session.request(
                    "PATCH", "/api/views/form", headers: ["Idempotency-Key": "k\(round)"],
                    body: #"{"password": "\#(password)", "phone": "1380000000\#(round)"}"#
                )
                #expect(typed.status == 200)
                #expect(typed.input("password") == .string(password), "the session itself sees what it typed")
            }
            let versions = try await session.request("GET", "/api/views/form/versions")
            #expect(!versions.text.contains(password), "/versions shows it masked")
            #expect(versions.text.contains("••••••"))
            let replay = try await session.request(
                "PATCH", "/api/views/form", headers: ["Idempotency-Key": "k2"],
                body: #"{"password": "\#(password)", "phone": "13800000002"}"#
            )
            #expect(replay.header("Idempotent-Replayed") == "true")
            #expect(replay.input("phone") == "13800000002")
            return session.token
        }
        // Every byte the store wrote: the database, its write-ahead log, anything beside them.
        var stored = Data()
        for name in try FileManager.default.contentsOfDirectory(atPath: directory.path) {
            stored += (try? Data(contentsOf: directory.appendingPathComponent(name))) ?? Data()
        }
        #expect(stored.range(of: Data(password.utf8)) == nil, "nothing at rest holds the password")
        // Nor a plain hash of a request that carried it (an Idempotency-Key's fingerprint), which
        // a dictionary attack could try passwords against.
        for round in 0..<3 {
            let body = #"{"password": "\#(password)", "phone": "1380000000\#(round)"}"#
            let plain = Data(SHA256.hash(data: Data("PATCH /api/views/form\n\(body)".utf8)))
            #expect(stored.range(of: plain) == nil, "no plain hash of write \(round) at rest")
        }
        #expect(stored.range(of: Data("13800000002".utf8)) != nil, "the rest of the form is kept")
        // After a restart the password is what the form starts with: empty.
        try await TestServer.with(store: try SQLiteStore(path: directory.appendingPathComponent("b.sqlite").path)) { server in
            let form = try await HTTPTestClient(port: server.port, token: token).request("GET", "/api/views/form")
            #expect(form.input("phone") == "13800000002")
            #expect(form.input("password") == "")
        }
    }
}
