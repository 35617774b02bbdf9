import Bindery
import BinderyRuntime
import BinderyTestSupport
import Testing

/// Only the answer to the request that signed a session in carries its new token: another request
/// of the same session, answered meanwhile, gets no cookie. Whoever planted or stole the token
/// before the sign-in (session fixation) must not learn the new one by racing the sign-in.
@Suite("A sign-in's new token goes to its own answer only")
struct SignInRaceTests {
    @Test func aRequestAnsweredWhileTheSessionSignsInGetsNoNewToken() async throws {
        let gate = Gate()
        let app: TestServer.AppFactory = { context in
            var app = JobsViewModel.app(gate: gate)(context)
            app.users = NotesViewModel.users
            return app
        }
        try await TestServer.with(app: app) { server in
            let planted = try await server.newSession()
            // The planter's request, held in flight by the gate.
            let held = Task {
                try await planted.request("POST", "/api/views/jobs/commands/serial", headers: ["Prefer": "wait=20"], body: #"{"value": 1}"#)
            }
            while try await planted.request("GET", "/api/views/jobs").json["commands"]?.objectValue?["serial"]?.objectValue?["executing"] != true {
                await Task.yield()
            }
            let signedIn = try await planted.request("POST", "/api/session/sign-in", body: #"{"username": "ada", "password": "secret-ada"}"#)
            #expect(signedIn.status == 200)
            let token = try #require(signedIn.json["token"]?.stringValue)
            gate.open()
            let answer = try await held.value
            #expect(answer.header("Set-Cookie") == nil, "the racing request's answer carries no cookie")
            #expect(!answer.text.contains(token), "nor the new token")
            #expect(try await planted.request("GET", "/api/session").status == 401, "the planted token is dead")
        }
    }
}
