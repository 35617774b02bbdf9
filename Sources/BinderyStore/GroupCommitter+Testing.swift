/// Hooks that let tests and shutdown see and steer the queue, without sleeping.
extension GroupCommitter {
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
