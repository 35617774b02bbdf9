/// A store's single writer: callers' operations wait in a ``WriteQueue`` and one drain task runs
/// them in batches, a transaction each (``GroupCommitter`` for SQLite, ``PostgresCommitter``).
protocol BatchingWriter: AnyObject, Sendable {
    /// One operation's work in the batch's transaction.
    associatedtype Step: Sendable
    /// The operations waiting.
    var queue: WriteQueue<Step> { get }
    /// Runs batches until the queue is empty or held.
    func drain() async
}

/// Hooks that let tests and shutdown see and steer the queue, without sleeping.
extension BatchingWriter {
    /// How many transactions and operations the writer committed.
    var statistics: GroupCommitStatistics { queue.statistics }

    /// Stops starting transactions: operations queue up until ``release()``.
    func hold() {
        queue.hold()
    }

    /// Lets queued operations run again, all of them in as few transactions as possible.
    func release() {
        if queue.release() {
            Task { await self.drain() }
        }
    }

    /// Returns once at least `count` operations are queued.
    func waitUntilQueued(_ count: Int) async {
        await queue.waitUntilQueued(count)
    }

    /// Returns once no transaction is running (queued operations may remain if writes are held).
    func waitUntilIdle() async {
        await queue.waitUntilIdle()
    }
}
