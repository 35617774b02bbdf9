import Logging
import PostgresNIO
import Synchronization

/// The writer of a ``PostgresStore``: callers queue operations, one drain task runs everything
/// queued in one transaction on one pooled connection, and each caller's `await` returns only once
/// that transaction has committed. Consecutive view-model operations go to the server in one
/// statement (``PostgresWriteBatch``), so a batch of them costs `BEGIN`, one statement and
/// `COMMIT` whatever its size; any other operation runs its own statements in its own savepoint.
///
/// An operation that throws a ``StoreError`` (a conflict, say), or that PostgreSQL refuses with an
/// error, rolls back its own work and fails alone: a savepoint's operation its savepoint; view-model
/// operations are first sent without one (no subtransaction per operation), and if one is refused
/// the transaction is rolled back and run again with each of them confined server-side. A transaction chosen as a deadlock victim
/// (or refused by serialization) is rolled back whole and run again, a few times: rolling back only
/// the victim's savepoint would keep the locks its earlier operations took, so the other side would
/// still wait and the retry would deadlock again. A lost connection or a failed `COMMIT` fails every
/// caller of the transaction that was not refused with ``StoreError/unavailable(reason:)``.
final class PostgresCommitter: BatchingWriter {
    /// One operation's step in the transaction.
    enum Step: Sendable {
        /// Statements of its own, run in a savepoint.
        case statements(@Sendable (PostgresConnection) async throws -> WriteOutcome)
        /// View-model writes, sent with the neighbouring ones; `acknowledge` answers the caller.
        case viewModelWrites(PostgresWriteBatch.Operation, acknowledge: @Sendable () -> Void)
    }

    /// An optimistic view-model statement was refused: the transaction is run again carefully.
    private struct RefusedWithoutSavepoints: Error {}

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
                run: .statements { connection in
                    let value = try await work(connection)
                    return .applied(acknowledge: { continuation.resume(returning: value) })
                },
                fail: { continuation.resume(throwing: $0) }
            )
            enqueue(write)
        }
    }

    /// Applies `writes` (in key order) together in the next transaction; returns once it committed.
    func submit(writes: [ViewModelWrite], context: PostgresStore.WriteContext) async throws {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
            let write = PendingWrite<Step>(
                run: .viewModelWrites(
                    PostgresWriteBatch.Operation(writes: writes, context: context), acknowledge: { continuation.resume() }
                ),
                fail: { continuation.resume(throwing: $0) }
            )
            enqueue(write)
        }
    }

    private func enqueue(_ write: PendingWrite<Step>) {
        switch queue.enqueue(write) {
        case .startDrain: Task { await self.drain() }
        case .closed: write.fail(.unavailable(reason: "the store is closed"))
        case .queued: break
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
    /// victim or for serialization, up to ``maxAttempts`` times, and once more carefully when a
    /// view-model operation was refused without its own subtransaction.
    private static func transaction(
        _ batch: [PendingWrite<Step>], on connection: PostgresConnection, logger: Logger
    ) async throws -> [WriteOutcome] {
        var attempt = 1
        var careful = false
        while true {
            do {
                return try await attemptTransaction(batch, careful: careful, on: connection, logger: logger)
            } catch let error as PSQLError where isTransient(error) && attempt < maxAttempts {
                attempt += 1
            } catch is RefusedWithoutSavepoints {
                careful = true
            }
        }
    }

    /// `BEGIN`, every operation (consecutive view-model ones in one statement, others in their
    /// savepoints), `COMMIT`; on any error a `ROLLBACK` (closing the connection if even that fails,
    /// so the pool never hands out a connection inside a transaction).
    private static func attemptTransaction(
        _ batch: [PendingWrite<Step>], careful: Bool, on connection: PostgresConnection, logger: Logger
    ) async throws -> [WriteOutcome] {
        do {
            try await connection.query("BEGIN", logger: logger)
            var outcomes: [WriteOutcome] = []
            var index = batch.startIndex
            while index < batch.endIndex {
                var operations: [PostgresWriteBatch.Operation] = []
                var acknowledgements: [@Sendable () -> Void] = []
                while index < batch.endIndex, case .viewModelWrites(let operation, let acknowledge) = batch[index].run {
                    operations.append(operation)
                    acknowledgements.append(acknowledge)
                    index += 1
                }
                if operations.isEmpty, case .statements(let run) = batch[index].run {
                    outcomes.append(try await runInSavepoint(run, on: connection, logger: logger))
                    index += 1
                } else {
                    outcomes += try await applyViewModelWrites(
                        operations, acknowledgements, careful: careful, on: connection, logger: logger
                    )
                }
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

    /// Sends view-model operations in one statement. Without `careful`, a refusal (not a transient
    /// one) becomes ``RefusedWithoutSavepoints``: the transaction is then run again carefully.
    private static func applyViewModelWrites(
        _ operations: [PostgresWriteBatch.Operation], _ acknowledgements: [@Sendable () -> Void], careful: Bool,
        on connection: PostgresConnection, logger: Logger
    ) async throws -> [WriteOutcome] {
        do {
            return try await PostgresWriteBatch(operations: operations)
                .apply(careful: careful, acknowledge: acknowledgements, on: connection, logger: logger)
        } catch let error as PSQLError where !careful && error.serverInfo != nil && !isTransient(error) {
            throw RefusedWithoutSavepoints()
        }
    }

    /// Runs one operation in its savepoint: its refusal rolls back only its own work, except a
    /// transient one, which is thrown so that the whole transaction is rolled back.
    private static func runInSavepoint(
        _ run: @Sendable (PostgresConnection) async throws -> WriteOutcome, on connection: PostgresConnection, logger: Logger
    ) async throws -> WriteOutcome {
        try await connection.query("SAVEPOINT operation", logger: logger)
        do {
            let outcome = try await run(connection)
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
