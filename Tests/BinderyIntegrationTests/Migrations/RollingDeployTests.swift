import Bindery
import BinderyStore
import BinderyTestSupport
import Foundation
import Logging
import Testing

/// A rolling deploy on several nodes: one node still runs the first build (`count`, items with
/// titles) while a new one runs the renamed build with its migration, both on one real
/// PostgreSQL, nginx in front. Writers keep adding to the same sessions, their requests taking
/// turns through nginx (which sends a session to the node its token hashes to) and to each node
/// directly (as while a node restarts during the deploy, its sessions served by the other),
/// retrying what a node refuses (503: state a newer build wrote; 409). Nothing acknowledged is
/// lost, nothing is counted twice, and no state goes back to the first build's shape.
///
/// Budget: about 10 s (one PostgreSQL shared with the store tests, nginx, two nodes).
@Suite("Rolling deploys across nodes")
struct RollingDeployTests {
    static func node<Model: ViewModel>(_ make: @escaping @Sendable () -> Model, database: String) async throws -> BinderyServer {
        var logger = Logger(label: "bindery-rolling")
        logger.logLevel = .critical
        let configuration = BinderyConfiguration(
            server: ServerConfiguration(host: "127.0.0.1", port: 0), store: try StoreLocation(parsing: database), servesClient: false
        )
        let server = try await BinderyServer(configuration: configuration, logger: logger) { _ in
            BinderyApp(screens: [Screen("tally", title: "Tally", make: make)])
        }
        try await server.start()
        return server
    }

    @Test func oldAndNewNodesShareSessionsAndNothingIsLostOrDowngraded() async throws {
        let postgres = try await PostgresServer.shared()
        let database = try await postgres.makeDatabase()
        let old = try await Self.node(TallyV1.init, database: database)
        // Sessions of the first build, each with 1 item, written by the old node alone.
        var tokens: [String] = []
        for index in 0..<4 {
            let created = try await HTTPTestClient(port: old.port).request("POST", "/api/sessions")
            let client = HTTPTestClient(port: old.port, token: created.json["token"]?.stringValue)
            _ = try await client.request("PATCH", "/api/views/tally", body: #"{"label": "tally \#(index)"}"#)
            #expect(try await client.request("POST", "/api/views/tally/commands/add").status == 200)
            tokens.append(client.token ?? "")
        }
        let new = try await Self.node(TallyV2.init, database: database)
        let nginx = try NginxProxy(upstreams: [old.port, new.port])
        let adds = 8
        let outcomes = try await withThrowingTaskGroup(of: [Int: Int].self) { group in
            for token in tokens {
                group.addTask {
                    // Through nginx, to the new node, to the old one: every session reaches both.
                    let clients = [nginx.port, new.port, old.port].map { HTTPTestClient(port: $0, token: token) }
                    var sent = 0
                    var statuses: [Int: Int] = [:]
                    for add in 0..<adds {
                        // One key per add: a retry after a refusal runs it at most once.
                        let key = "add-\(token.prefix(8))-\(add)"
                        var status = 0
                        for _ in 0..<100 where status != 200 {
                            status = try await clients[sent % clients.count].request(
                                "POST", "/api/views/tally/commands/add", headers: ["Idempotency-Key": key]
                            ).status
                            sent += 1
                            statuses[status, default: 0] += 1
                            // A client waits before it retries (the 503 says 2 s; a test need not).
                            if status != 200 { try await Task.sleep(for: .milliseconds(100)) }
                        }
                        #expect(status == 200, "add \(add) was acknowledged: \(statuses)")
                        _ = try await clients[0].request("GET", "/api/views/tally")
                    }
                    return statuses
                }
            }
            return try await group.reduce(into: [Int: Int]()) { total, statuses in total.merge(statuses, uniquingKeysWith: +) }
        }
        #expect(Set(outcomes.keys).isSubset(of: [200, 409, 503]), "only acknowledgements and refusals: \(outcomes)")
        // Every third request goes to the old node, which refuses what the new one has migrated
        // (it can neither read it nor write over it).
        #expect(outcomes[503, default: 0] > 0, "the old node refused the migrated state: \(outcomes)")
        // The old node leaves, as the last step of the deploy; the new one holds every write.
        await old.shutdown()
        for (index, token) in tokens.enumerated() {
            let read = try await HTTPTestClient(port: new.port, token: token).request("GET", "/api/views/tally")
            #expect(read.status == 200)
            #expect(read.output("count") == .int(1 + adds), "every acknowledged add, once: session \(index): \(read.text)")
            #expect(read.output("items")?.arrayValue?.count == 1 + adds)
            #expect(read.input("label") == .string("tally \(index)"))
        }
        let shapes = try await postgres.sql(
            "SELECT DISTINCT shape FROM bindery_view_model", database: String(database.split(separator: "/").last ?? ""))
        #expect(
            shapes.split(separator: "\n") == [Substring(TallyV2.declaration.persistedShape.stored.description)],
            "no state downgraded: \(shapes) (\(outcomes))"
        )
        nginx.stop()
        await new.shutdown()
    }
}
