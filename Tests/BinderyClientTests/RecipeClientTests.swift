import BinderyClient
import Testing

@MainActor
@Suite("A C-41 recipe edited from two clients")
struct RecipeClientTests {
    @Test func eachClientSeesTheOthersChangeThroughItsStream() async throws {
        try await ClientTestServer.with { server in
            let alice = try await server.signedInSession(as: .lilei).view("recipes/c41/edit")
            let bob = try await server.signedInSession(as: .hanmeimei).view("recipes/c41/edit")
            let following = [Task { await alice.follow() }, Task { await bob.follow() }]
            defer { following.forEach { $0.cancel() } }
            try await within {
                try await alice.wait { $0.connection == .live }
                try await bob.wait { $0.connection == .live }
                #expect(bob.input("name", as: String.self) == "C-41 colour negative")

                alice[input: "blurb"] = "Colour negative, at 37.8 °C."
                try await bob.wait { $0.input("blurb", as: String.self) == "Colour negative, at 37.8 °C." }

                try await bob.write(["name": "C-41 (home kit)"])
                try await alice.wait { $0.input("name", as: String.self) == "C-41 (home kit)" }
                #expect(alice.input("blurb", as: String.self) == "Colour negative, at 37.8 °C.")

                try await alice.run("addStep", with: ["name": "Rinse", "durationSeconds": 60])
                try await bob.wait { $0.output("steps")?.arrayValue?.count == 5 }
                #expect(alice.problem == nil && bob.problem == nil)
            }
        }
    }
}
