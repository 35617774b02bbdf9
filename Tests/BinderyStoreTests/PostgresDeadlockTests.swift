import BinderyTestSupport
import PostgresNIO
import Testing

@testable import BinderyStore

/// Two nodes whose transactions lock the same rows in opposite orders, across operations of one
/// batch: PostgreSQL breaks the deadlock by refusing one transaction, and its writer runs that
/// whole transaction again, so every operation of both batches commits exactly once.
@Suite("PostgreSQL: a deadlock between nodes")
struct PostgresDeadlockTests {
    @Test func theDeadlockVictimsTransactionRunsAgainWhole() async throws {
        let url = try await PostgresServer.shared().makeDatabase()
        let first = try await makePostgresStore(url: url, nodeID: "node-a")
        let second = try await makePostgresStore(url: url, nodeID: "node-b")
        try await first.committer.submit { connection in
            try await connection.query("CREATE TABLE probe (id integer PRIMARY KEY, n integer NOT NULL)", logger: first.logger)
            try await connection.query("INSERT INTO probe VALUES (1, 0), (2, 0)", logger: first.logger)
        }
        // Each batch's first operation increments one row and waits until the other batch's
        // first did too; its second increments the other row: a cycle, whichever runs first.
        let bothHoldARow = Rendezvous(count: 2)
        try await withThrowingTaskGroup(of: Void.self) { group in
            for (store, rows) in [(first, (1, 2)), (second, (2, 1))] {
                store.committer.hold()
                group.addTask {
                    try await store.committer.submit { connection in
                        try await increment(rows.0, on: connection, logger: store.logger)
                        await bothHoldARow.arrive()
                    }
                }
                await store.committer.waitUntilQueued(1)
                group.addTask {
                    try await store.committer.submit { connection in
                        try await increment(rows.1, on: connection, logger: store.logger)
                    }
                }
                await store.committer.waitUntilQueued(2)
            }
            first.committer.release()
            second.committer.release()
            try await group.waitForAll()
        }
        // Both batches committed once each: the refused attempt's increments were rolled back.
        let counts = try await first.committer.submit { connection in
            var counts: [Int] = []
            for try await n in try await connection.query("SELECT n FROM probe ORDER BY id", logger: first.logger).decode(Int.self) {
                counts.append(n)
            }
            return counts
        }
        #expect(counts == [2, 2])
        try await first.close()
        try await second.close()
    }

    private func increment(_ row: Int, on connection: PostgresConnection, logger: Logger) async throws {
        try await connection.query("UPDATE probe SET n = n + 1 WHERE id = \(row)", logger: logger)
    }
}

/// Lets `count` tasks wait for each other once; later arrivals pass at once.
private actor Rendezvous {
    private let count: Int
    private var waiting: [CheckedContinuation<Void, Never>] = []
    private var isOpen = false

    init(count: Int) {
        self.count = count
    }

    func arrive() async {
        guard !isOpen else { return }
        if waiting.count + 1 == count {
            isOpen = true
            waiting.forEach { $0.resume() }
            waiting = []
            return
        }
        await withCheckedContinuation { waiting.append($0) }
    }
}
