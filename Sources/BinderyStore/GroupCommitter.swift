import GRDB
import Synchronization

/// The single writer of an SQLite store: callers queue operations, one drain task runs everything
/// queued in one transaction (each caller's operation in its own savepoint), and each caller's
/// `await` returns only once that transaction has committed.
///
/// A caller whose operation throws a ``StoreError`` (a version conflict, say) is refused alone: its
/// savepoint is rolled back and the other operations commit. Any other error, or a failed commit,
/// fails the whole transaction, and every caller in it that was not refused gets
/// ``StoreError/unavailable(reason:)``.
final class GroupCommitter: Sendable {
    /// What became of one operation inside the transaction.
    enum Outcome: Sendable {
        case applied(acknowledge: @Sendable () -> Void)
        case refused(StoreError)
    }

    /// A queued operation and the way to fail its caller.
    struct Pending: Sendable {
        let run: @Sendable (Database) throws -> Outcome
        let fail: @Sendable (StoreError) -> Void
    }

    /// The transaction's result, as returned from the writer's queue.
    enum BatchResult: Sendable {
        case committed([Outcome])
        case failed([Outcome], reason: String)
    }

    struct State {
        var queue: [Pending] = []
        var isDraining = false
        var isHeld = false
        var pendingWaiters: [(count: Int, continuation: CheckedContinuation<Void, Never>)] = []
        var idleWaiters: [CheckedContinuation<Void, Never>] = []
        var statistics = GroupCommitStatistics()
    }

    private let writer: any DatabaseWriter
    private let maxBatchSize: Int
    /// Told of each commit and of each time the queue runs dry (a file store's checkpoints).
    private let checkpointer: WALCheckpointer?
    let state = Mutex(State())

    /// A writer over `writer`, putting at most `maxBatchSize` operations in one transaction.
    init(writer: any DatabaseWriter, maxBatchSize: Int = 512, checkpointer: WALCheckpointer? = nil) {
        self.writer = writer
        self.maxBatchSize = max(1, maxBatchSize)
        self.checkpointer = checkpointer
    }

    var statistics: GroupCommitStatistics {
        state.withLock { $0.statistics }
    }

    /// Runs `work` in the next transaction and returns its result once that transaction committed.
    func submit<T: Sendable>(_ work: @escaping @Sendable (Database) throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            let pending = Pending(
                run: { db in
                    do {
                        let value = try db.inOperationSavepoint(work)
                        return .applied(acknowledge: { continuation.resume(returning: value) })
                    } catch let error as StoreError {
                        return .refused(error)
                    }
                },
                fail: { continuation.resume(throwing: $0) }
            )
            enqueue(pending)
        }
    }

    private func enqueue(_ pending: Pending) {
        let startsDrain = state.withLock { state in
            state.queue.append(pending)
            let count = state.queue.count
            state.pendingWaiters.removeAll { waiter in
                guard waiter.count <= count else { return false }
                waiter.continuation.resume()
                return true
            }
            guard !state.isDraining, !state.isHeld else { return false }
            state.isDraining = true
            return true
        }
        if startsDrain {
            Task { await self.drain() }
        }
    }

    func drain() async {
        while let batch = nextBatch() {
            await run(batch)
        }
        checkpointer?.writerIdle()
    }

    /// Takes the next batch, or ends the drain (atomically) when there is none or writes are held.
    private func nextBatch() -> [Pending]? {
        state.withLock { state in
            guard !state.queue.isEmpty, !state.isHeld else {
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
        let result: BatchResult
        do {
            result = try await writer.writeWithoutTransaction { db in
                var outcomes: [Outcome] = []
                do {
                    try db.inTransaction(.immediate) {
                        for pending in batch {
                            outcomes.append(try pending.run(db))
                        }
                        return .commit
                    }
                    return .committed(outcomes)
                } catch {
                    return .failed(outcomes, reason: Self.reason(for: error))
                }
            }
        } catch {
            result = .failed([], reason: Self.reason(for: error))
        }
        finish(batch, with: result)
    }

    private func finish(_ batch: [Pending], with result: BatchResult) {
        switch result {
        case .committed(let outcomes):
            let acknowledged = outcomes.count { if case .applied = $0 { true } else { false } }
            state.withLock { state in
                state.statistics.transactions += 1
                state.statistics.operations += acknowledged
            }
            checkpointer?.committed()
            for (pending, outcome) in zip(batch, outcomes) {
                switch outcome {
                case .applied(let acknowledge): acknowledge()
                case .refused(let error): pending.fail(error)
                }
            }
        case .failed(let outcomes, let reason):
            state.withLock { $0.statistics.failedTransactions += 1 }
            for (index, pending) in batch.enumerated() {
                if index < outcomes.count, case .refused(let error) = outcomes[index] {
                    pending.fail(error)
                } else {
                    pending.fail(.unavailable(reason: reason))
                }
            }
        }
    }

    /// A short text for an underlying error: SQLite's own message where there is one.
    static func reason(for error: any Error) -> String {
        if let error = error as? DatabaseError {
            return "\(error.message ?? "SQLite error") (SQLite code \(error.extendedResultCode.rawValue))"
        }
        if case StoreError.unavailable(let reason) = error {
            return reason
        }
        return String(describing: error)
    }
}
