import Synchronization

/// The queue the SQLite and PostgreSQL writers share: callers' writes wait here, one drain at a
/// time takes them in batches of at most `maxBatchSize`, and each batch becomes one transaction
/// (group commit). It keeps the writer's statistics and lets tests and shutdown see and steer it
/// without sleeping: hold and release the queue, wait until so many writes are queued or until no
/// transaction runs.
///
/// It is a state machine under a lock and runs nothing itself: a writer starts a drain when
/// ``enqueue(_:)`` says so and loops over ``nextBatch()``.
final class WriteQueue<Run: Sendable>: Sendable {
    /// What ``enqueue(_:)`` made of a write.
    enum Admission {
        /// The write waits; a drain already runs (or the queue is held).
        case queued
        /// The write waits and no drain runs: the caller starts one.
        case startDrain
        /// The queue is closed: the write is refused.
        case closed
    }

    private struct State {
        var queue: [PendingWrite<Run>] = []
        var isDraining = false
        var isHeld = false
        var isClosed = false
        var queuedWaiters: [(count: Int, continuation: CheckedContinuation<Void, Never>)] = []
        var idleWaiters: [CheckedContinuation<Void, Never>] = []
        var statistics = GroupCommitStatistics()
    }

    private let state = Mutex(State())
    private let maxBatchSize: Int

    /// A queue handing out batches of at most `maxBatchSize` writes.
    init(maxBatchSize: Int) {
        self.maxBatchSize = max(1, maxBatchSize)
    }

    /// The transactions and writes so far.
    var statistics: GroupCommitStatistics {
        state.withLock { $0.statistics }
    }

    /// Queues `write`; says whether the caller starts the drain, or whether the write is refused.
    func enqueue(_ write: PendingWrite<Run>) -> Admission {
        state.withLock { state in
            guard !state.isClosed else { return .closed }
            state.queue.append(write)
            let count = state.queue.count
            state.queuedWaiters.removeAll { waiter in
                guard waiter.count <= count else { return false }
                waiter.continuation.resume()
                return true
            }
            guard !state.isDraining, !state.isHeld else { return .queued }
            state.isDraining = true
            return .startDrain
        }
    }

    /// The next batch, or nil — ending the drain, atomically — when none waits or writes are held.
    func nextBatch() -> [PendingWrite<Run>]? {
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

    /// Ends a committed transaction of `batch`: each applied write's caller gets its answer, each
    /// refused one its error.
    func committed(_ batch: [PendingWrite<Run>], outcomes: [WriteOutcome]) {
        let applied = outcomes.count { if case .applied = $0 { true } else { false } }
        state.withLock { state in
            state.statistics.transactions += 1
            state.statistics.operations += applied
        }
        for (write, outcome) in zip(batch, outcomes) {
            switch outcome {
            case .applied(let acknowledge): acknowledge()
            case .refused(let error): write.fail(error)
            }
        }
    }

    /// Ends a transaction of `batch` that did not commit: the writes refused on their own (the
    /// first `outcomes`) get their error, every other caller ``StoreError/unavailable(reason:)``.
    func failed(_ batch: [PendingWrite<Run>], outcomes: [WriteOutcome] = [], reason: String) {
        state.withLock { $0.statistics.failedTransactions += 1 }
        for (index, write) in batch.enumerated() {
            if index < outcomes.count, case .refused(let error) = outcomes[index] {
                write.fail(error)
            } else {
                write.fail(.unavailable(reason: reason))
            }
        }
    }

    /// Refuses later writes (the store is closing).
    func close() {
        state.withLock { $0.isClosed = true }
    }

    /// Stops handing out batches: writes queue up until ``release()``.
    func hold() {
        state.withLock { $0.isHeld = true }
    }

    /// Hands out batches again; true when the caller starts the drain (writes wait, none runs).
    func release() -> Bool {
        state.withLock { state in
            state.isHeld = false
            guard !state.isDraining, !state.queue.isEmpty else { return false }
            state.isDraining = true
            return true
        }
    }

    /// Returns once at least `count` writes are queued.
    func waitUntilQueued(_ count: Int) async {
        await withCheckedContinuation { continuation in
            state.withLock { state in
                if state.queue.count >= count {
                    continuation.resume()
                } else {
                    state.queuedWaiters.append((count, continuation))
                }
            }
        }
    }

    /// Returns once no transaction runs (writes may still be queued while the queue is held).
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
}

/// One caller's write waiting in a ``WriteQueue``: how to run it inside the transaction (`Run`:
/// SQLite's synchronous step on a `Database`, PostgreSQL's asynchronous one on a connection) and
/// how to fail its caller.
struct PendingWrite<Run: Sendable>: Sendable {
    /// Runs the write in the transaction; its outcome says whether it applied or was refused.
    let run: Run
    /// Fails the caller.
    let fail: @Sendable (StoreError) -> Void
}

/// What became of one write inside a transaction.
enum WriteOutcome: Sendable {
    /// It applied; `acknowledge` answers its caller once the transaction committed.
    case applied(acknowledge: @Sendable () -> Void)
    /// It was refused alone (its savepoint rolled back); the others go on.
    case refused(StoreError)
}
