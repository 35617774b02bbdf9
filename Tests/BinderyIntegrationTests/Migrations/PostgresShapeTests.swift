import Bindery
import BinderyStore
import BinderyTestSupport
import Foundation
import Testing

/// The deploy check on the shared store: the same refusal, set-aside and put-back as on SQLite,
/// through PostgreSQL's own statements.
///
/// Budget: about 2 s (the PostgreSQL the store tests share).
@Suite("Persisted shapes on PostgreSQL")
struct PostgresShapeTests {
    static func serve<Model: ViewModel, T>(
        _ make: @escaping @Sendable () -> Model, on database: String, unreadable: UnreadableStoredState = .refuseToStart,
        _ body: (Int) async throws -> T
    ) async throws -> T {
        let store = try await StoreLocation(parsing: database).open()
        return try await DeployedServer.serve(on: store, configure: { $0.unreadableStoredState = unreadable }) { _ in
            BinderyApp(screens: [Screen("tally", title: "Tally", make: make)])
        } _: {
            try await body($0)
        }
    }

    @Test func unreadableStateStopsTheStartThenIsSetAsideAndPutBack() async throws {
        let database = try await PostgresServer.shared().makeDatabase()
        let tokens = try await Self.serve(TallyV1.init, on: database) { port in
            var tokens: [String] = []
            for _ in 0..<2 {
                let client = try await PersistedShapeHTTPTests.newSession(port)
                let added = try await client.request("POST", "/api/views/tally/commands/add")
                #expect(added.status == 200)
                tokens.append(client.token ?? "")
            }
            return tokens
        }
        await #expect(throws: StoredStateRefusal.self) {
            try await Self.serve(TallyV2Unmigrated.init, on: database) { _ in }
        }
        try await Self.serve(TallyV2Unmigrated.init, on: database, unreadable: .setAside) { port in
            let metrics = try await HTTPTestClient(port: port).request("GET", "/metrics")
            #expect(metrics.text.contains("bindery_stored_states_set_aside 2"))
        }
        try await Self.serve(TallyV2.init, on: database) { port in
            for token in tokens {
                let read = try await HTTPTestClient(port: port, token: token).request("GET", "/api/views/tally")
                #expect(read.output("count") == .int(1), "put back and migrated")
                #expect(read.output("items") == .array(["item 1"]))
            }
        }
    }
}
