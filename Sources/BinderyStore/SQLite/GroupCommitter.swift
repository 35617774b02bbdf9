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
final class GroupCommitter: BatchingWriter {
    /// One write's step in the transaction.
    typealias Step = @Sendable (Database) throws -> WriteOutcome

    private let writer: any DatabaseWriter
    /// Told of each commit and of each time the queue runs dry (a file store's checkpoints).
    private let checkpointer: WALCheckpointer?
    /// The writes waiting, shared in shape with PostgreSQL's writer.
    let queue: WriteQueue<Step>

    /// A writer over `writer`, putting at most `maxBatchSize` operations in one transaction.
    init(writer: any DatabaseWriter, maxBatchSize: Int = 512, checkpointer: WALCheckpointer? = nil) {
        self.writer = writer
        self.queue = WriteQueue(maxBatchSize: maxBatchSize)
        self.checkpointer = checkpointer
    }

    /// Runs `work` in the next transaction and returns its result once that transaction committed.
    func submit<T: Sendable>(_ work: @escaping @Sendable (Database) throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            let write = PendingWrite<Step>(
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
            switch queue.enqueue(write) {
            case .startDrain: Task { await self.drain() }
            case .closed: write.fail(.unavailable(reason: "the store is closed"))
            case .queued: break
            }
        }
    }

    /// Runs batches until none waits.
    func drain() async {
        while let batch = queue.nextBatch() {
            await run(batch)
        }
        checkpointer?.writerIdle()
    }

    private enum BatchResult: Sendable {
        case committed([WriteOutcome])
        case failed([WriteOutcome], reason: String)
    }

    private func run(_ batch: [PendingWrite<Step>]) async {
        let result: BatchResult
        do {
            result = try await writer.writeWithoutTransaction { db in
                var outcomes: [WriteOutcome] = []
                do {
                    try db.inTransaction(.immediate) {
                        for write in batch {
                            outcomes.append(try write.run(db))
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
        switch result {
        case .committed(let outcomes):
            checkpointer?.committed()
            queue.committed(batch, outcomes: outcomes)
        case .failed(let outcomes, let reason):
            queue.failed(batch, outcomes: outcomes, reason: reason)
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
