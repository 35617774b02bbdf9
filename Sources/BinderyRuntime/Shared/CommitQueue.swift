import Synchronization

/// Runs async jobs one at a time, in the order they were handed in: a ``SharedCollection``'s
/// commits, so each one reads the result of the one before.
final class CommitQueue: Sendable {
    private let tail = Mutex<Task<Void, Never>?>(nil)

    /// Runs `job` after every job handed in before it has ended, and returns its result. The job
    /// runs to its end even if the caller is cancelled (a commit is never left half done).
    func run<T: Sendable>(_ job: @escaping @Sendable () async -> T) async -> T {
        let task = tail.withLock { tail -> Task<T, Never> in
            let previous = tail
            let task = Task {
                await previous?.value
                return await job()
            }
            tail = Task { _ = await task.value }
            return task
        }
        return await task.value
    }
}
