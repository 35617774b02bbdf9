import BinderyTestSupport
import Foundation
import Testing

@testable import BinderyStore

/// Writes are sent only to the other nodes that hold their space: nobody hears a space only its
/// writer holds, a release stops the notifications, a hold racing with writes misses none, and the
/// holders of stopped nodes are deleted.
@Suite("PostgreSQL: only the nodes holding a space hear of its writes")
struct PostgresHolderTests {
    /// Three nodes on a new database, each with a stream already listening.
    private func threeNodes() async throws -> (nodes: [PostgresStore], feeds: [ChangeRecorder], url: String) {
        let url = try await PostgresServer.shared().makeDatabase()
        var nodes: [PostgresStore] = []
        var feeds: [ChangeRecorder] = []
        for name in ["node-a", "node-b", "node-c"] {
            let node = try await makePostgresStore(url: url, nodeID: name)
            let feed = ChangeRecorder(node.changes())
            try await feed.wait("the first resynchronize") { $0.first == .resynchronize }
            nodes.append(node)
            feeds.append(feed)
        }
        return (nodes, feeds, url)
    }

    @Test func aWriteGoesOnlyToTheOtherHoldersOfItsSpace() async throws {
        let (nodes, feeds, _) = try await threeNodes()
        let (a, b, c) = (nodes[0], nodes[1], nodes[2])
        for byte: UInt8 in 1...3 { _ = try await a.createSession(tokenHash(byte), at: t0) }
        try await a.hold(tokenHash(1))
        try await a.hold(tokenHash(3))
        try await b.hold(tokenHash(2))
        try await c.hold(tokenHash(1))

        // Session 3 is held by its writer alone; notifications of one channel arrive in commit
        // order, so once the later writes arrive an earlier one would have too.
        try await a.commit([write(key(3), expected: nil, version: 1)])
        try await a.commit([write(key(1), expected: nil, version: 1)])
        try await a.commit([write(key(2), expected: nil, version: 1)])
        try await c.commit([write(key(1), expected: 1, version: 2)])
        try await feeds[1].wait("session 2's write at b") { !$0.dropFirst().isEmpty }
        try await feeds[2].wait("session 1's write at c") { !$0.dropFirst().isEmpty }
        try await feeds[0].wait("c's write at a") { !$0.dropFirst().isEmpty }
        #expect(feeds[0].viewModelChanges == [ViewModelChange(key: key(1), version: 2, node: "node-c")])
        #expect(feeds[1].viewModelChanges == [ViewModelChange(key: key(2), version: 1, node: "node-a")])
        #expect(feeds[2].viewModelChanges == [ViewModelChange(key: key(1), version: 1, node: "node-a")])
        for node in nodes { try await node.close() }
    }

    @Test func afterAReleaseNoMoreNotifications() async throws {
        let (nodes, feeds, _) = try await threeNodes()
        let (a, c) = (nodes[0], nodes[2])
        for byte: UInt8 in 1...2 { _ = try await a.createSession(tokenHash(byte), at: t0) }
        try await c.hold(tokenHash(1))
        try await c.hold(tokenHash(2))
        try await a.commit([write(key(1), expected: nil, version: 1)])
        try await feeds[2].wait("the write before the release") { $0.count == 2 }
        try await c.release(tokenHash(1))
        try await c.release(tokenHash(1))  // Idempotent.
        try await a.commit([write(key(1), expected: 1, version: 2)])
        try await a.commit([write(key(2), expected: nil, version: 1)])
        try await feeds[2].wait("session 2's write") { $0.count == 3 }
        #expect(
            feeds[2].viewModelChanges == [
                ViewModelChange(key: key(1), version: 1, node: "node-a"), ViewModelChange(key: key(2), version: 1, node: "node-a"),
            ]
        )
        for node in nodes { try await node.close() }
    }

    /// Node B holds a space and reads it while node A writes there; whatever the interleaving, B
    /// either reads A's last version or is told of it. Half the rounds create the session at the
    /// same time as the hold (a hold of a session whose row is not committed yet).
    @Test func aHoldRacingWithWritesMissesNothing() async throws {
        let (nodes, feeds, _) = try await threeNodes()
        let (a, b) = (nodes[0], nodes[1])
        let rounds = 24
        let writes = 8
        for round in 0..<rounds {
            let space = tokenHash(UInt8(10 + round))
            let key = ViewModelKey(session: space, path: "form")
            let createdFirst = round.isMultiple(of: 2)
            if createdFirst { _ = try await a.createSession(space, at: t0) }
            async let written: Int = {
                if !createdFirst { _ = try await a.createSession(space, at: t0) }
                for version in 1...writes {
                    try await a.commit([write(key, expected: version == 1 ? nil : version - 1, version: version)])
                }
                return writes
            }()
            try await Task.sleep(for: .microseconds(Int.random(in: 0...3_000)))
            try await b.hold(space)
            let read = try await b.viewModel(key)?.version ?? 0
            let last = try await written
            if read < last {
                try await feeds[1].wait("round \(round): version \(last) read (\(read)) or notified") {
                    $0.contains { if case .changed(let change) = $0 { change.key == key && change.version == last } else { false } }
                }
            }
        }
        for node in nodes { try await node.close() }
    }

    /// The race made certain: node A's transaction has notified (nobody: B does not hold yet) and
    /// stays open 200 ms before its commit while B holds and reads (so B hears nothing). B's hold must wait for it, for
    /// a session that exists and for one created in that same transaction.
    @Test func aHoldWaitsForAWriterThatNotifiedBeforeIt() async throws {
        let (nodes, feeds, _) = try await threeNodes()
        let (a, b) = (nodes[0], nodes[1])
        for (byte, createdByTheWriter) in [(UInt8(1), false), (2, true)] {
            let space = tokenHash(byte)
            if !createdByTheWriter { _ = try await a.createSession(space, at: t0) }
            let logger = a.logger
            let (notified, signal) = AsyncStream.makeStream(of: Void.self)
            // One transaction: [the session's creation,] the write, then a wait before the commit.
            a.committer.hold()
            let writer = Task {
                try await withThrowingTaskGroup(of: Void.self) { group in
                    if createdByTheWriter { group.addTask { _ = try await a.createSession(space, at: t0) } }
                    await a.committer.waitUntilQueued(createdByTheWriter ? 1 : 0)
                    group.addTask { try await a.commit([write(key(byte), expected: nil, version: 1)]) }
                    await a.committer.waitUntilQueued(createdByTheWriter ? 2 : 1)
                    group.addTask {
                        try await a.committer.submit { connection in
                            signal.yield()
                            try await connection.query("SELECT pg_sleep(0.2)", logger: logger)
                        }
                    }
                    await a.committer.waitUntilQueued(createdByTheWriter ? 3 : 2)
                    a.committer.release()
                    try await group.waitForAll()
                }
            }
            for await _ in notified { break }
            try await b.hold(space)
            let read = try await b.viewModel(key(byte))?.version
            try await writer.value
            #expect(read == 1, "the hold returned before the writer committed (session created by it: \(createdByTheWriter))")
        }
        #expect(feeds[1].viewModelChanges.isEmpty)
        for node in nodes { try await node.close() }
    }

    @Test func theHoldersOfStoppedNodesAreDeletedWhenANodeStarts() async throws {
        let (nodes, _, url) = try await threeNodes()
        let database = String(url.split(separator: "/").last!)
        let server = try await PostgresServer.shared()
        try await nodes[1].hold(tokenHash(1))
        try await server.sql(
            """
            INSERT INTO bindery_holder (space, channel, listener) VALUES
                (decode(repeat('01', 32), 'hex'), 'bindery_node_gone', 'bindery-listen-gone-\(UUID().uuidString.prefix(8))')
            """,
            database: database
        )
        let rows = "SELECT string_agg(listener, ',' ORDER BY listener) FROM bindery_holder"
        #expect(try await server.sql(rows, database: database).contains("gone"))
        let started = try await makePostgresStore(url: url, nodeID: "node-d")
        #expect(try await server.sql(rows, database: database) == "bindery-listen-node-b", "the live node's hold stays")
        try await started.close()
        for node in nodes { try await node.close() }
    }

    @Test func holdsDeletedWhileTheListenConnectionWasAwayAreRestored() async throws {
        let (nodes, feeds, url) = try await threeNodes()
        let database = String(url.split(separator: "/").last!)
        let (a, b) = (nodes[0], nodes[1])
        _ = try await a.createSession(tokenHash(1), at: t0)
        try await b.hold(tokenHash(1))
        // As another node starting while b's LISTEN connection is down would do.
        try await PostgresServer.shared().sql(
            """
            SELECT pg_terminate_backend(pid) FROM pg_stat_activity
            WHERE application_name = 'bindery-listen-node-b' AND datname = '\(database)';
            DELETE FROM bindery_holder;
            """,
            database: database
        )
        try await feeds[1].wait("a resynchronize after the reconnect") { $0.count { $0 == .resynchronize } == 2 }
        try await a.commit([write(key(1), expected: nil, version: 1)])
        try await feeds[1].wait("the write after the reconnect") { $0.last != .resynchronize }
        #expect(feeds[1].viewModelChanges == [ViewModelChange(key: key(1), version: 1, node: "node-a")])
        for node in nodes { try await node.close() }
    }
}
