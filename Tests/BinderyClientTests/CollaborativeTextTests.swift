@testable import BinderyClient
import Testing

@MainActor
@Suite("Collaborative texts written as text operations, others' edits merged in")
struct CollaborativeTextTests {
    @Test func twoClientsTypingAtOnceEndWithBothEdits() async throws {
        try await ClientTestServer.with { server in
            let alice = try await server.signedInSession(as: .lilei).view("recipes/c41/edit")
            let bob = try await server.signedInSession(as: .hanmeimei).view("recipes/c41/edit")
            let following = [Task { await alice.follow() }, Task { await bob.follow() }]
            defer { following.forEach { $0.cancel() } }
            try await within {
                try await alice.wait { $0.connection == .live }
                try await bob.wait { $0.connection == .live }
                let start = try #require(alice.input("blurb", as: String.self))
                #expect(bob.input("blurb", as: String.self) == start)
                // Interleaved, each before any answer: Alice types at the start, Bob at the end.
                alice[input: "blurb"] = .string("Hi " + start)
                bob[input: "blurb"] = .string(start + " (bob)")
                alice[input: "blurb"] = .string("Hi all, " + start)
                bob[input: "blurb"] = .string(start + " (bob, twice)")
                #expect(alice.input("blurb", as: String.self) == "Hi all, " + start, "what is typed shows at once")
                try await alice.flush()
                try await bob.flush()
                let merged = "Hi all, " + start + " (bob, twice)"
                try await alice.wait { $0.input("blurb", as: String.self) == merged }
                try await bob.wait { $0.input("blurb", as: String.self) == merged }
                let reader = try await server.newSession().view("recipes/c41/edit")
                try await reader.refresh()
                #expect(reader.input("blurb", as: String.self) == merged, "the server has the same text")
                #expect(alice.problem == nil && bob.problem == nil)
            }
        }
    }

    @Test func anotherClientsEditIsMergedIntoTheOneInFlight() async throws {
        try await ClientTestServer.with { server in
            let alice = try await server.signedInSession(as: .lilei).view("recipes/c41/edit")
            let bob = try await server.signedInSession(as: .hanmeimei).view("recipes/c41/edit")
            try await within {
                try await alice.refresh()  // not following: Bob's edit comes with her answer (`concurrent`)
                try await bob.refresh()
                let start = try #require(alice.input("blurb", as: String.self))
                try await bob.write(["blurb": .string("Bob: " + start)])
                #expect(alice.input("blurb", as: String.self) == start, "Alice has not seen it")
                try await alice.write(["blurb": .string(start + " Alice.")])
                #expect(alice.input("blurb", as: String.self) == "Bob: " + start + " Alice.", "merged, her text kept")
                try await bob.refresh()
                #expect(bob.input("blurb", as: String.self) == "Bob: " + start + " Alice.")
            }
        }
    }

    @Test func aRevisionTooOldIsRebasedOnTheReloadedText() async throws {
        try await ClientTestServer.with { server in
            let alice = try await server.signedInSession(as: .lilei).view("recipes/c41/edit")
            let bob = try await server.signedInSession(as: .hanmeimei).view("recipes/c41/edit")
            try await within(.seconds(60)) {
                try await alice.refresh()
                try await bob.refresh()
                let start = try #require(alice.input("blurb", as: String.self))
                try await bob.write(["blurb": .string(start + " (bob)")])
                // More versions than the server keeps edits for: Alice's base gets 409.
                for index in 0..<70 {
                    try await bob.write(["filmType": .string(index.isMultiple(of: 2) ? "colourSlide" : "colourNegative")])
                }
                try await alice.write(["blurb": .string("Alice: " + start)])
                #expect(alice.streamLog.contains("too old blurb"), "\(alice.streamLog)")
                #expect(alice.input("blurb", as: String.self) == "Alice: " + start + " (bob)")
                try await bob.refresh()
                #expect(bob.input("blurb", as: String.self) == "Alice: " + start + " (bob)")
            }
        }
    }

    @Test func aLostAnswerIsResentWithTheSameIdAndAppliedOnce() async throws {
        try await ClientTestServer.with { server in
            let alice = try await server.signedInSession(as: .lilei).view("recipes/c41/edit")
            try await within {
                try await alice.refresh()
                let start = try #require(alice.input("blurb", as: String.self))
                alice.textAnswersToLose = 1
                try await alice.write(["blurb": .string(start + "!")])
                #expect(alice.streamLog.contains("resend blurb"))
                #expect(alice.input("blurb", as: String.self) == start + "!")
                let reader = try await server.newSession().view("recipes/c41/edit")
                try await reader.refresh()
                #expect(reader.input("blurb", as: String.self) == start + "!", "applied once")
            }
        }
    }
}
