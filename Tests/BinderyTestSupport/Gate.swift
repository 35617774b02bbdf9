import Synchronization

/// A one-shot gate: `wait()` suspends until `open()`; cancellation ends the wait with an error.
/// Lets tests hold deferred work at a known point without sleeping.
public final class Gate: Sendable {
    private let state = Mutex<(open: Bool, waiters: [UInt64: CheckedContinuation<Void, any Error>], next: UInt64)>(
        (false, [:], 0)
    )

    /// Creates a closed gate.
    public init() {}

    /// Opens the gate: every waiter goes on, and later waits do not wait.
    public func open() {
        let waiters = state.withLock { state in
            state.open = true
            defer { state.waiters.removeAll() }
            return Array(state.waiters.values)
        }
        waiters.forEach { $0.resume() }
    }

    /// Waits until the gate is open; throws `CancellationError` when cancelled first.
    public func wait() async throws {
        let id = state.withLock { state in
            state.next += 1
            return state.next
        }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                let resumeNow = state.withLock { state -> Bool in
                    if state.open || Task.isCancelled { return true }
                    state.waiters[id] = continuation
                    return false
                }
                if resumeNow {
                    if Task.isCancelled { continuation.resume(throwing: CancellationError()) } else { continuation.resume() }
                }
            }
        } onCancel: {
            let waiter = state.withLock { $0.waiters.removeValue(forKey: id) }
            waiter?.resume(throwing: CancellationError())
        }
    }
}
