/// Hooks that let tests and shutdown see and steer the queue, without sleeping.
extension GroupCommitter {
    /// Stops starting transactions: operations queue up until ``release()``.
    func hold() {
        state.withLock { $0.isHeld = true }
    }

    /// Lets queued operations run again, all of them in as few transactions as possible.
    func release() {
        let startsDrain = state.withLock { state in
            state.isHeld = false
            guard !state.isDraining, !state.queue.isEmpty else { return false }
            state.isDraining = true
            return true
        }
        if startsDrain {
            Task { await self.drain() }
        }
    }

    /// Returns once at least `count` operations are queued.
    func waitUntilQueued(_ count: Int) async {
        await withCheckedContinuation { continuation in
            state.withLock { state in
                if state.queue.count >= count {
                    continuation.resume()
                } else {
                    state.pendingWaiters.append((count, continuation))
                }
            }
        }
    }

    /// Returns once no transaction is running (queued operations may remain if writes are held).
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
