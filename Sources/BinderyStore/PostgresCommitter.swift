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
    /// What became of one operation inside the transaction.
    enum Outcome: Sendable {
        case applied(acknowledge: @Sendable () -> Void)
        case refused(StoreError)
    }

    /// A queued operation and the way to fail its caller.
    struct Pending: Sendable {
        let run: @Sendable (PostgresConnection) async throws -> Outcome
        let fail: @Sendable (StoreError) -> Void
    }

    struct State {
        var queue: [Pending] = []
        var isDraining = false
        var isClosed = false
        var idleWaiters: [CheckedContinuation<Void, Never>] = []
        var statistics = GroupCommitStatistics()
    }

    /// SQLSTATEs of a transient refusal worth retrying: deadlock, serialization failure.
    private static let retriedStates: Set<String> = ["40P01", "40001"]
    private static let maxAttempts = 3

    private let client: PostgresClient
    private let maxBatchSize: Int
    private let logger: Logger
    let state = Mutex(State())

    init(client: PostgresClient, maxBatchSize: Int, logger: Logger) {
        self.client = client
        self.maxBatchSize = max(1, maxBatchSize)
        self.logger = logger
    }

    var statistics: GroupCommitStatistics {
        state.withLock { $0.statistics }
    }

    /// Runs `work` in the next transaction and returns its result once that transaction committed.
    func submit<T: Sendable>(_ work: @escaping @Sendable (PostgresConnection) async throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            let pending = Pending(
                run: { connection in
                    let value = try await work(connection)
                    return .applied(acknowledge: { continuation.resume(returning: value) })
                },
                fail: { continuation.resume(throwing: $0) }
            )
            enqueue(pending)
        }
    }

    /// Refuses later operations and returns once the queued ones have been committed.
    func close() async {
        state.withLock { $0.isClosed = true }
        await waitUntilIdle()
    }

    /// Returns once no transaction is running.
    func waitUntilIdle() async {
        await withCheckedContinuation { continuation in
            state.withLock { state in
                if state.isDraining {
                    state.idleWaiters.append(continuation)
                } else {
                    continuation.resume()
                }
            }
        }
    }

    private func enqueue(_ pending: Pending) {
        enum Action { case drain, refuse, none }
        let action = state.withLock { state -> Action in
            guard !state.isClosed else { return .refuse }
            state.queue.append(pending)
            guard !state.isDraining else { return .none }
            state.isDraining = true
            return .drain
        }
        switch action {
        case .drain: Task { await self.drain() }
        case .refuse: pending.fail(.unavailable(reason: "the store is closed"))
        case .none: break
        }
    }

    private func drain() async {
        while let batch = nextBatch() {
            await run(batch)
        }
    }

    /// Takes the next batch, or ends the drain (atomically) when there is none.
    private func nextBatch() -> [Pending]? {
        state.withLock { state in
            guard !state.queue.isEmpty else {
                state.isDraining = false
                for waiter in state.idleWaiters { waiter.resume() }
                state.idleWaiters = []
                return nil
            }
            let batch = Array(state.queue.prefix(maxBatchSize))
            state.queue.removeFirst(batch.count)
            return batch
        }
    }

    private func run(_ batch: [Pending]) async {
        let logger = self.logger
        var outcomes: [Outcome] = []
        do {
            outcomes = try await client.withConnection { connection in
                try await Self.transaction(batch, on: connection, logger: logger)
            }
        } catch {
            finishFailed(batch, reason: PostgresStore.reason(for: error))
            return
        }
        state.withLock { state in
            state.statistics.transactions += 1
            state.statistics.operations += outcomes.count { if case .applied = $0 { true } else { false } }
        }
        for (pending, outcome) in zip(batch, outcomes) {
            switch outcome {
            case .applied(let acknowledge): acknowledge()
            case .refused(let error): pending.fail(error)
            }
        }
    }

    /// Fails every caller of a transaction that did not commit. Refusals are not reported: nothing
    /// was stored either way, and `unavailable` tells the caller to retry.
    private func finishFailed(_ batch: [Pending], reason: String) {
        state.withLock { $0.statistics.failedTransactions += 1 }
        for pending in batch {
            pending.fail(.unavailable(reason: reason))
        }
    }

    /// `BEGIN`, every operation in its savepoint, `COMMIT`; on any error a `ROLLBACK` (closing the
    /// connection if even that fails, so the pool never hands out a connection inside a transaction).
    private static func transaction(
        _ batch: [Pending], on connection: PostgresConnection, logger: Logger
    ) async throws -> [Outcome] {
        do {
            try await connection.query("BEGIN", logger: logger)
            var outcomes: [Outcome] = []
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
        _ pending: Pending, on connection: PostgresConnection, logger: Logger
    ) async throws -> Outcome {
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
