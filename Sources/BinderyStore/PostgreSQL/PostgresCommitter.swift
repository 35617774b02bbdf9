import Logging
import PostgresNIO
import Synchronization

/// The writer of a ``PostgresStore``: callers queue operations, one drain task runs everything
/// queued in one transaction on one pooled connection (each caller's operation in its own
/// savepoint), and each caller's `await` returns only once that transaction has committed.
///
/// An operation that throws a ``StoreError`` (a conflict, say), or that PostgreSQL refuses with an
/// error, rolls back its own savepoint and fails alone. A transaction chosen as a deadlock victim
/// (or refused by serialization) is rolled back whole and run again, a few times: rolling back only
/// the victim's savepoint would keep the locks its earlier operations took, so the other side would
/// still wait and the retry would deadlock again. A lost connection or a failed `COMMIT` fails every
/// caller of the transaction that was not refused with ``StoreError/unavailable(reason:)``.
final class PostgresCommitter: BatchingWriter {
    /// One write's step in the transaction.
    typealias Step = @Sendable (PostgresConnection) async throws -> WriteOutcome

    /// SQLSTATEs of a transient refusal worth retrying: deadlock, serialization failure.
    private static let retriedStates: Set<String> = ["40P01", "40001"]
    private static let maxAttempts = 3

    private let client: PostgresClient
    private let logger: Logger
    /// The writes waiting, shared in shape with SQLite's writer.
    let queue: WriteQueue<Step>

    init(client: PostgresClient, maxBatchSize: Int, logger: Logger) {
        self.client = client
        self.queue = WriteQueue(maxBatchSize: maxBatchSize)
        self.logger = logger
    }

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

    /// Runs batches until none waits.
    func drain() async {
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

    /// The batch's transaction, run again from `BEGIN` while PostgreSQL refuses it as a deadlock
    /// victim or for serialization, up to ``maxAttempts`` times.
    private static func transaction(
        _ batch: [PendingWrite<Step>], on connection: PostgresConnection, logger: Logger
    ) async throws -> [WriteOutcome] {
        var attempt = 1
        while true {
            do {
                return try await attemptTransaction(batch, on: connection, logger: logger)
            } catch let error as PSQLError where isTransient(error) && attempt < maxAttempts {
                attempt += 1
            }
        }
    }

    /// `BEGIN`, every operation in its savepoint, `COMMIT`; on any error a `ROLLBACK` (closing the
    /// connection if even that fails, so the pool never hands out a connection inside a transaction).
    private static func attemptTransaction(
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

    /// Runs one operation in its savepoint: its refusal rolls back only its own work, except a
    /// transient one, which is thrown so that the whole transaction is rolled back.
    private static func runInSavepoint(
        _ pending: PendingWrite<Step>, on connection: PostgresConnection, logger: Logger
    ) async throws -> WriteOutcome {
        try await connection.query("SAVEPOINT operation", logger: logger)
        do {
            let outcome = try await pending.run(connection)
            try await connection.query("RELEASE SAVEPOINT operation", logger: logger)
            return outcome
        } catch let error as StoreError {
            try await rollBackSavepoint(on: connection, logger: logger)
            return .refused(error)
        } catch let error as PSQLError where error.serverInfo != nil && !isTransient(error) {
            try await rollBackSavepoint(on: connection, logger: logger)
            return .refused(.unavailable(reason: PostgresStore.reason(for: error)))
        }
    }

    /// Whether PostgreSQL refused the transaction only for now: a deadlock victim, a serialization failure.
    private static func isTransient(_ error: PSQLError) -> Bool {
        retriedStates.contains(error.serverInfo?[.sqlState] ?? "")
    }

    private static func rollBackSavepoint(on connection: PostgresConnection, logger: Logger) async throws {
        try await connection.query("ROLLBACK TO SAVEPOINT operation", logger: logger)
        try await connection.query("RELEASE SAVEPOINT operation", logger: logger)
    }
}
