import BinderyClient
import BinderyRuntime
import Foundation
import SeedClients
import Testing

/// Signing in and out through BinderyClient: the session carries the new token from then on, in
/// every view model opened from it (issue 37).
@MainActor
@Suite("Signing in and out through BinderyClient, against a real server")
struct SignInClientTests {
    @Test func signingInReplacesTheTokenForEveryViewOfTheSession() async throws {
        try await ClientTestServer.with { server in
            let session = try await server.newSession()
            let before = session.token
            let recipes = session.view("recipes")
            try await recipes.refresh()
            let refused = await #expect(throws: RemoteProblem.self) { try await recipes.run("favourite", with: ["id": "c41", "favourite": true]) }
            #expect(refused?.status == 401, "anonymous: sign in first")
            let user = try await session.signIn(username: "18612345678", password: "passw0rd")
            #expect(user == User(id: "u-lilei", name: "Li Lei", roles: ["admin"]))
            #expect(session.token != before)
            #expect(try await session.user()?.name == "Li Lei")
            try await within {
                // The view opened before the sign-in carries the new token too.
                try await recipes.run("favourite", with: ["id": "c41", "favourite": true])
                let rows = recipes.output("recipes", as: [RecipeRow].self) ?? []
                #expect(rows.first { $0.id == "c41" }?.outputs.favourite == true)
            }
            let stale = BinderySession(baseURL: server.url, token: before)
            let old = await #expect(throws: RemoteProblem.self) { try await stale.user() }
            #expect(old?.status == 401, "the old token is refused")
        }
    }

    @Test func theFormsSignInCommandMovesTheSessionToItsNewToken() async throws {
        try await ClientTestServer.with { server in
            let session = try await server.newSession()
            let before = session.token
            let form = FormClient(session: session)
            try await form.remote.refresh()
            try await within {
                try await form.remote.write(["phone": "13800000000", "password": "hunter22"])
                #expect(form.canSignIn)
                try await form.signIn()
                #expect(form.signedInAs == "Han Meimei")
                #expect(form.password == "")
            }
            #expect(session.token != before)
            #expect(try await session.user()?.id == "u-hanmeimei")
            let wrong = try await server.newSession()
            let refusal = await #expect(throws: RemoteProblem.self) { try await wrong.signIn(username: "13800000000", password: "nope-nope") }
            #expect(refusal?.status == 422)
        }
    }

    @Test func signingOutEndsTheSessionAndEverywhereEndsTheOthers() async throws {
        try await ClientTestServer.with { server in
            let phone = try await server.newSession()
            let laptop = try await server.newSession()
            try await phone.signIn(username: "13800000000", password: "hunter22")
            try await laptop.signIn(username: "13800000000", password: "hunter22")
            #expect(try await phone.signOutEverywhere() == 2)
            let ended = await #expect(throws: RemoteProblem.self) { try await laptop.user() }
            #expect(ended?.status == 401)
            let next = try await server.newSession()
            try await next.signIn(username: "13800000000", password: "hunter22")
            try await next.signOut()
            let gone = await #expect(throws: RemoteProblem.self) { try await next.user() }
            #expect(gone?.status == 401)
        }
    }

    /// One row of the recipe list as the test reads it.
    private struct RecipeRow: Decodable {
        struct Outputs: Decodable { let favourite: Bool }
        let id: String
        let outputs: Outputs
    }
}
