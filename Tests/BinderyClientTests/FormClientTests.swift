import BinderyClient
import Foundation
import Testing

@MainActor
@Suite("The seed form through BinderyClient, against a real server")
struct FormClientTests {
    @Test func typingAPhoneNumberMakesItValidAndClearResetsTheForm() async throws {
        try await ClientTestServer.with { server in
            let session = try await server.newSession()
            let form = session.view("form")
            let following = Task { await form.follow() }
            defer { following.cancel() }
            try await within {
                try await form.wait { $0.connection == .live }
                #expect(form.input("phone", as: String.self) == "186")
                #expect(form.output("phoneValid", as: Bool.self) == false)
                for typed in ["1861", "18612", "186123", "18612345678"] {
                    form[input: "phone"] = .string(typed)  // as a user types: coalesced PATCHes
                }
                #expect(form.input("phone", as: String.self) == "18612345678", "what was typed shows at once")
                try await form.wait { $0.output("phoneValid", as: Bool.self) == true }
                #expect(form.command("clear")?.enabled == false, "the password is still too short")
                try await form.write(["password": "passw0rd"])
                #expect(form.command("clear")?.enabled == true)
                let cleared = try await form.run("clear")
                #expect(cleared.objectValue?["inputs"] == ["phone": "186", "password": ""])
                #expect(form.input("phone", as: String.self) == "186")
                #expect(form.output("phoneValid", as: Bool.self) == false)
                #expect(form.problem == nil)
            }
        }
    }

    @Test func aRefusedWriteShowsTheServersProblemAndTheServersValue() async throws {
        try await ClientTestServer.with { server in
            let form = try await server.newSession().view("form")
            try await form.refresh()
            try await within {
                let tooLong = String(repeating: "1", count: 65)
                let refusal = await #expect(throws: RemoteProblem.self) { try await form.write(["phone": .string(tooLong)]) }
                #expect(refusal?.status == 422)
                #expect(refusal?.field == "phone")
                #expect(refusal?.detail == "'phone': longer than 64 characters.")
                #expect(form.problem == refusal, "the View can show it")
                #expect(form.input("phone", as: String.self) == "186", "the server's value is shown again")
                form[input: "phone"] = "13800000000"
                try await form.flush()
                form.dismissProblem()
                #expect(form.problem == nil)
                let disabled = await #expect(throws: RemoteProblem.self) { try await form.run("clear") }
                #expect(disabled?.status == 409)
                #expect(disabled?.command == "clear")
            }
        }
    }

    @Test func anUnknownTokenIsRefusedAtOnce() async throws {
        try await ClientTestServer.with { server in
            let session = BinderySession(baseURL: server.url, token: String(repeating: "0", count: 32))
            let form = session.view("form")
            let refusal = await #expect(throws: RemoteProblem.self) { try await form.refresh() }
            #expect(refusal?.status == 401)
            await form.follow()  // returns at once: refused for good
            let problem = try #require(refusal)
            #expect(form.connection == .failed(problem))
        }
    }

    @Test func aWriteOnAnOlderVersionMergesUnlessTheSameInputChanged() async throws {
        try await ClientTestServer.with { server in
            let session = try await server.newSession()
            let mine = session.view("form")
            let theirs = session.view("form")  // another device on the same session
            try await mine.refresh()
            try await theirs.refresh()
            try await within {
                try await theirs.write(["password": "theirs!!"])
                try await mine.write(["phone": "13800000000"])  // If-Match 1: password changed, not phone
                #expect(mine.input("password", as: String.self) == "theirs!!")
                try await theirs.refresh()
                try await theirs.write(["phone": "13900000000"])
                let conflict = await #expect(throws: RemoteProblem.self) { try await mine.write(["phone": "15000000000"]) }
                #expect(conflict?.status == 412)
                #expect(conflict?.fields == ["phone"])
                #expect(mine.input("phone", as: String.self) == "13900000000")
            }
        }
    }
}
