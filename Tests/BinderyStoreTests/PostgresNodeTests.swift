import BinderyTestSupport
import Foundation
import Testing

@testable import BinderyStore

/// Two `PostgresStore`s on one database, as two nodes: version checks across nodes, change
/// notifications, and a LISTEN connection killed by the server.
@Suite("PostgreSQL: several nodes on one database")
struct PostgresNodeTests {
    /// Two nodes on a new database, with session 1 created and held by the second (only the
    /// nodes holding a space hear of its writes).
    private func twoNodes() async throws -> (PostgresStore, PostgresStore, String) {
        let url = try await PostgresServer.shared().makeDatabase()
        let first = try await makePostgresStore(url: url, nodeID: "node-a")
        let second = try await makePostgresStore(url: url, nodeID: "node-b")
        _ = try await first.createSession(tokenHash(1), at: t0)
        try await second.hold(tokenHash(1))
        return (first, second, url)
    }

    @Test func sameExpectedVersionOnTwoNodesCommitsExactlyOnce() async throws {
        let (first, second, _) = try await twoNodes()
        for round in 0..<20 {
            let key = key(1, "form\(round)")
            // The first write races too: an insert that finds the row does nothing.
            let outcomes = try await race(first, second, key: key, expected: nil)
            #expect(outcomes.sorted() == ["committed", "conflict nil->1"], "round \(round), first write")
            let again = try await race(first, second, key: key, expected: 1)
            #expect(again.sorted() == ["committed", "conflict 1->2"], "round \(round)")
            #expect(try await second.viewModel(key)?.version == 2)
        }
        try await first.close()
        try await second.close()
    }

    /// Both nodes write `expected` → `expected + 1` at once; what each saw.
    private func race(
        _ first: PostgresStore, _ second: PostgresStore, key: ViewModelKey, expected: Int?
    )
        async throws -> [String]
    {
        let version = (expected ?? 0) + 1
        return try await withThrowingTaskGroup(of: String.self) { group in
            for store in [first, second] {
                group.addTask {
                    do {
                        try await store.commit([write(key, expected: expected, version: version)])
                        return "committed"
                    } catch StoreError.conflict(_, let sent, let stored) {
                        return "conflict \(sent.map(String.init) ?? "nil")->\(stored.map(String.init) ?? "nil")"
                    }
                }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
    }

    @Test func aWriteOnOneNodeIsAnnouncedOnTheOther() async throws {
        let (first, second, _) = try await twoNodes()
        let feed = ChangeRecorder(second.changes())
        try await feed.wait("the first resynchronize") { $0.first == .resynchronize }

        try await first.commit([write(key(1), expected: nil, version: 1), write(key(1, "list"), expected: nil, version: 4)])
        // A refused batch is rolled back with its notifications.
        await #expect(throws: StoreError.self) {
            try await first.commit([write(key(1, "x"), expected: nil, version: 1), write(key(1), expected: 7, version: 8)])
        }
        try await first.commit([write(key(1), expected: 1, version: 2)])

        try await feed.wait("three changes") { $0.count >= 4 }
        #expect(
            feed.viewModelChanges == [
                ViewModelChange(key: key(1), version: 1, node: "node-a"),
                ViewModelChange(key: key(1, "list"), version: 4, node: "node-a"),
                ViewModelChange(key: key(1), version: 2, node: "node-a"),
            ]
        )
        #expect(try await second.viewModel(key(1)) == ViewModelRecord(key: key(1), version: 2, state: bytes("{\"v\":2}"), command: nil))
        #expect(try await second.viewModel(key(1, "x")) == nil)
        try await first.close()
        try await second.close()
    }

    @Test func subscribersArrivingAtOnceShareOneListenConnection() async throws {
        let (first, second, url) = try await twoNodes()
        let streams = await withTaskGroup(of: AsyncStream<StoreChange>.self) { group in
            for _ in 0..<8 { group.addTask { second.changes() } }
            return await group.reduce(into: []) { $0.append($1) }
        }
        let feeds = streams.map(ChangeRecorder.init)
        for feed in feeds { try await feed.wait("the first resynchronize") { $0.first == .resynchronize } }
        #expect(second.listenCount == 1, "two first subscribers once started two LISTEN connections")
        let database = url.split(separator: "/").last.map(String.init) ?? ""
        let listening = try await PostgresServer.shared().sql(
            "SELECT count(*) FROM pg_stat_activity WHERE application_name = 'bindery-listen-node-b' AND datname = '\(database)'"
        )
        #expect(listening == "1")
        try await first.commit([write(key(1), expected: nil, version: 1)])
        for feed in feeds {
            try await feed.wait("the change") { $0.contains { $0 != .resynchronize } }
            #expect(feed.viewModelChanges == [ViewModelChange(key: key(1), version: 1, node: "node-a")], "once, not twice")
        }
        try await first.close()
        try await second.close()
    }

    @Test func aKilledListenConnectionReconnectsAndAsksToResynchronize() async throws {
        let (first, second, url) = try await twoNodes()
        let server = try await PostgresServer.shared()
        let feed = ChangeRecorder(second.changes())
        try await feed.wait("the first resynchronize") { $0.first == .resynchronize }

        // Only this test's database: other tests run side by side with nodes of the same name.
        let database = url.split(separator: "/").last.map(String.init) ?? ""
        let killed = try await server.sql(
            "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity "
                + "WHERE application_name = 'bindery-listen-node-b' AND datname = '\(database)'"
        )
        #expect(killed == "1")
        try await feed.wait("a resynchronize after the reconnect") { $0.count { $0 == .resynchronize } == 2 }
        #expect(second.listenCount == 2)

        try await first.commit([write(key(1), expected: nil, version: 1)])
        try await feed.wait("the change after the reconnect") { !$0.isEmpty && $0.last != .resynchronize }
        #expect(feed.viewModelChanges == [ViewModelChange(key: key(1), version: 1, node: "node-a")])
        try await first.close()
        try await second.close()
    }

    @Test func everyStreamStartsWithResynchronizeAndEndsAtClose() async throws {
        let (first, second, _) = try await twoNodes()
        try await first.hold(tokenHash(1))
        let early = ChangeRecorder(first.changes())
        try await early.wait("the first resynchronize") { $0 == [.resynchronize] }
        let late = ChangeRecorder(first.changes())
        try await late.wait("a resynchronize for a stream opened while listening") { $0 == [.resynchronize] }
        // A node does not hear its own writes: only the second node's write arrives.
        try await first.commit([write(key(1), expected: nil, version: 1)])
        try await second.commit([write(key(1), expected: 1, version: 2)])
        try await late.wait("the other node's change") { $0.count == 2 }
        #expect(early.viewModelChanges.map(\.node) == ["node-b"])
        try await first.close()
        var afterClose = first.changes().makeAsyncIterator()
        #expect(await afterClose.next() == nil)
    }

    @Test func nodesStartingAtOnceSetUpTheSchemaOnce() async throws {
        let url = try await PostgresServer.shared().makeDatabase()
        let stores = try await withThrowingTaskGroup(of: PostgresStore.self) { group in
            for node in 0..<4 {
                group.addTask { try await makePostgresStore(url: url, nodeID: "start-\(node)") }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(stores.count == 4)
        let migrations = try await PostgresServer.shared().sql(
            "SELECT string_agg(name, ',' ORDER BY name) FROM bindery_migration", database: String(url.split(separator: "/").last!)
        )
        #expect(migrations == PostgresStore.migrations.map(\.name).joined(separator: ","), "each migration once")
        for store in stores {
            try await store.close()
        }
    }

    @Test func concurrentWritersShareTransactions() async throws {
        let store = try await makePostgresStore()
        for byte: UInt8 in 1...20 {
            _ = try await store.createSession(tokenHash(byte), at: t0)
        }
        let before = store.statistics
        try await withThrowingTaskGroup(of: Void.self) { group in
            for byte: UInt8 in 1...20 {
                group.addTask {
                    for version in 1...5 {
                        try await store.commit([write(key(byte), expected: version == 1 ? nil : version - 1, version: version)])
                    }
                }
            }
            try await group.waitForAll()
        }
        let transactions = store.statistics.transactions - before.transactions
        #expect(store.statistics.operations - before.operations == 100)
        #expect(transactions < 100, "100 writes in \(transactions) transactions")
        try await store.close()
        await #expect(throws: StoreError.unavailable(reason: "the store is closed")) {
            try await store.touchSession(tokenHash(1), at: t0)
        }
    }

    @Test func onlyTheRunningNodesRenewalMovesACommandsLease() async throws {
        let (first, second, _) = try await twoNodes()
        let load = key(1, "list")
        let started = DeferredCommand(name: "load", startedAt: t0)
        try await first.commit([write(load, expected: nil, version: 1, command: started)])
        try await first.renewCommandLeases([load: "load"], at: at(10))
        #expect(try await second.viewModel(load)?.command == .running(DeferredCommand(name: "load", startedAt: t0, renewedAt: at(10))))
        // Another node's write while the command runs keeps its start and lease.
        let other = DeferredCommand(name: "load", startedAt: at(12))
        try await second.commit([write(load, expected: 1, version: 2, at: at(12), command: other)])
        #expect(try await first.viewModel(load)?.command == .running(DeferredCommand(name: "load", startedAt: t0, renewedAt: at(10))))
        // A renewal of a command that is not (or no longer) running changes nothing.
        try await first.renewCommandLeases([load: "clear"], at: at(20))
        try await first.commit([write(load, expected: 2, version: 3, at: at(21))])
        try await first.renewCommandLeases([load: "load"], at: at(22))
        #expect(try await second.viewModel(load)?.command == nil)
        // A new execution starts a new lease.
        try await second.commit([write(load, expected: 3, version: 4, at: at(30), command: DeferredCommand(name: "load", startedAt: at(30)))])
        #expect(try await first.viewModel(load)?.command == .running(DeferredCommand(name: "load", startedAt: at(30))))
        try await first.close()
        try await second.close()
    }

    @Test func payloadsRoundTripAndStaySmall() {
        let change = ViewModelChange(key: key(0xab, "list/items/3 x"), version: 42, node: "node-a")
        #expect(change.payload.hasPrefix(String(repeating: "ab", count: 32) + " list/items/3 x 42 node-a"))
        #expect(ViewModelChange(payload: change.payload) == change)
        #expect(change.payload.utf8.count < 200)
        #expect(ViewModelChange(payload: "zz form 1 n") == nil)
        #expect(ViewModelChange(payload: "") == nil)
    }
}
