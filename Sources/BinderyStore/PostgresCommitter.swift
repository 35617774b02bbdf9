import Logging
import PostgresNIO
import Synchronization

/// The writer of a ``PostgresStore``: callers queue operations, one drain task runs everything
/// queued in one transaction on one pooled connection (each caller's operation in its own
/// savepoint), and each caller's `await` returns only once that transaction has committed.
///
/// An operation that throws a ``StoreError`` (a conflict, say), or that PostgreSQL refuses with an
/// error, rolls back its own savepoint and fails alone; one chosen as a deadlock victim is retried
/// in its savepoint a few times first. A lost connection or a failed `COMMIT` fails every caller of
/// the transaction that was not refused with ``StoreError/unavailable(reason:)``.
final class PostgresCommitter: Sendable {
    /// One write's step in the transaction.
    typealias Step = @Sendable (PostgresConnection) async throws -> WriteOutcome

    /// SQLSTATEs of a transient refusal worth retrying: deadlock, serialization failure.
    private static let retriedStates: Set<String> = ["40P01", "40001"]
    private static let maxAttempts = 3

    private let client: PostgresClient
    private let logger: Logger
    /// The writes waiting, shared in shape with SQLite's writer.
    private let queue: WriteQueue<Step>

    init(client: PostgresClient, maxBatchSize: Int, logger: Logger) {
        self.client = client
        self.queue = WriteQueue(maxBatchSize: maxBatchSize)
        self.logger = logger
    }

    var statistics: GroupCommitStatistics { queue.statistics }

    /// Runs `work` in the next transaction and returns its result once that transaction committed.
    func submit<T: Sendable>(_ work: @escaping @Sendable (PostgresConnection) async throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            let write = PendingWrite<Step>(
                run: { connection in
                    let value = try await work(connection)
                    return .applied(acknowledge: { continuation.resume(returning: value) })
                },
                fail: { continuation.resume(throwing: $0) }
            )
            switch queue.enqueue(write) {
            case .startDrain: Task { await self.drain() }
            case .closed: write.fail(.unavailable(reason: "the store is closed"))
            case .queued: break
            }
        }
    }

    /// Refuses later operations and returns once the queued ones have been committed.
    func close() async {
        queue.close()
        await queue.waitUntilIdle()
    }

    /// Returns once no transaction is running.
    func waitUntilIdle() async {
        await queue.waitUntilIdle()
    }

    private func drain() async {
        while let batch = queue.nextBatch() {
            await run(batch)
        }
    }

    private func run(_ batch: [PendingWrite<Step>]) async {
        let logger = self.logger
        let outcomes: [WriteOutcome]
        do {
            outcomes = try await client.withConnection { connection in
                try await Self.transaction(batch, on: connection, logger: logger)
            }
        } catch {
            // Refusals are not reported: nothing was stored either way, and `unavailable` tells
            // the caller to retry.
            queue.failed(batch, reason: PostgresStore.reason(for: error))
            return
        }
        queue.committed(batch, outcomes: outcomes)
    }

    /// `BEGIN`, every operation in its savepoint, `COMMIT`; on any error a `ROLLBACK` (closing the
    /// connection if even that fails, so the pool never hands out a connection inside a transaction).
    private static func transaction(
        _ batch: [PendingWrite<Step>], on connection: PostgresConnection, logger: Logger
    ) async throws -> [WriteOutcome] {
        do {
            try await connection.query("BEGIN", logger: logger)
            var outcomes: [WriteOutcome] = []
            for pending in batch {
                outcomes.append(try await runInSavepoint(pending, on: connection, logger: logger))
            }
            try await connection.query("COMMIT", logger: logger)
            return outcomes
        } catch {
            do {
                try await connection.query("ROLLBACK", logger: logger)
            } catch {
                try? await connection.close()
            }
            throw error
        }
    }

    private static func runInSavepoint(
        _ pending: PendingWrite<Step>, on connection: PostgresConnection, logger: Logger
    ) async throws -> WriteOutcome {
        var attempt = 1
        while true {
            try await connection.query("SAVEPOINT operation", logger: logger)
            do {
                let outcome = try await pending.run(connection)
                try await connection.query("RELEASE SAVEPOINT operation", logger: logger)
                return outcome
            } catch let error as StoreError {
                try await rollBackSavepoint(on: connection, logger: logger)
                return .refused(error)
            } catch let error as PSQLError where error.serverInfo != nil {
                try await rollBackSavepoint(on: connection, logger: logger)
                let state = error.serverInfo?[.sqlState] ?? ""
                guard retriedStates.contains(state), attempt < maxAttempts else {
                    return .refused(.unavailable(reason: PostgresStore.reason(for: error)))
                }
                attempt += 1
            }
        }
    }

    private static func rollBackSavepoint(on connection: PostgresConnection, logger: Logger) async throws {
        try await connection.query("ROLLBACK TO SAVEPOINT operation", logger: logger)
        try await connection.query("RELEASE SAVEPOINT operation", logger: logger)
    }
}
