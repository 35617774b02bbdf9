import BinderyClient
import Foundation
import SeedClients
import Testing

@MainActor
@Suite("The generated seed clients (Sources/SeedClients) against a real server")
struct GeneratedClientTests {
    @Test func theFormThroughFormClient() async throws {
        try await ClientTestServer.with { server in
            let form = FormClient(session: try await server.newSession())
            let following = Task { await form.remote.follow() }
            defer { following.cancel() }
            try await within {
                try await form.remote.wait { $0.connection == .live }
                #expect(form.phone == "186")
                #expect(form.phoneValid == false)
                #expect(form.canClear == false)
                form.phone = "18612345678"  // a typed property: a coalesced PATCH
                #expect(form.phone == "18612345678", "what was typed shows at once")
                try await form.remote.wait { _ in form.phoneValid }
                #expect(form.canClear == false, "the password is still too short")
                form.password = "passw0rd"
                try await form.remote.wait { _ in form.canClear }
                try await form.clear()
                #expect(form.phone == "186")
                #expect(form.password == "")
                #expect(form.phoneValid == false)
                #expect(form.remote.problem == nil)
            }
        }
    }

    @Test func aListCellThroughItsTypedRoute() async throws {
        try await ClientTestServer.with { server in
            let list = ListClient(session: try await server.newSession())
            try await within {
                try await list.remote.refresh()
                try await list.load()
                let id = try #require(list.items.first?.objectValue?["id"]?.stringValue)
                let cell = list.item(id: id)
                #expect(cell.remote.path == "list/items/\(id)")
                try await cell.remote.refresh()
                #expect(!cell.title.isEmpty)
                #expect(list.items.first?.objectValue?["outputs"]?.objectValue?["title"]?.stringValue == cell.title)
            }
        }
    }

    @Test func aRecipesEditorThroughItsFixedPage() async throws {
        try await ClientTestServer.with { server in
            let recipes = RecipesClient(session: try await server.signedInSession())  // editing needs a user
            let edit = recipes.recipe(id: "c41").edit
            #expect(edit.remote.path == "recipes/c41/edit")
            try await within {
                try await edit.remote.refresh()
                #expect(!edit.name.isEmpty)
                let steps = edit.steps.count
                try await edit.addStep(durationSeconds: 60, name: "Rinse")
                #expect(edit.steps.count == steps + 1)
            }
        }
    }
}
