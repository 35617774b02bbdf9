import BinderyClient
import Testing

@MainActor
@Suite("A command's Task cancelled cancels the server's execution")
struct CommandCancellationTests {
    @Test func cancellingTheTaskOfTheListsLoadCancelsItOnTheServer() async throws {
        // Ten seconds of upstream latency: the load runs until it is cancelled.
        try await ClientTestServer.with(latencyMs: 10_000) { server in
            let session = try await server.newSession()
            let list = session.view("list")
            let following = Task { await list.follow() }
            defer { following.cancel() }
            try await within {
                try await list.wait { $0.connection == .live }
                let load = Task { try await list.run("load") }
                try await list.wait { $0.command("load")?.executing == true }
                load.cancel()
                let outcome = await load.result
                #expect(throws: CancellationError.self) { try outcome.get() }
                #expect(list.command("load")?.executing == false, "the cancel's answer is shown")

                // What the server shows afterwards, read by another view of the session.
                let check = session.view("list")
                try await check.refresh()
                #expect(check.command("load")?.executing == false)
                #expect(check.command("load")?.error == nil, "a cancelled run is no failure")
                #expect(check.output("items") == [], "and it left the list as it was")
                #expect(list.problem == nil)
            }
        }
    }
}
