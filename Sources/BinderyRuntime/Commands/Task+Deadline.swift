import Synchronization

extension Task where Failure == Never {
    /// The task's value if it arrives within `wait` on `clock`, else nil (the task goes on).
    func value(waitingUpTo wait: Duration, on clock: any Clock<Duration>) async -> Success? {
        await firstResult(within: wait, on: clock) { await self.value }
    }
}

/// What `operation` returns if it finishes within `wait` on `clock`; nil once the time is up, or
/// at once when the caller is cancelled, even when the operation ignores cancellation (it is
/// cancelled and left to finish alone).
package func firstResult<Value: Sendable>(
    within wait: Duration, on clock: any Clock<Duration>, _ operation: @escaping @Sendable () async -> Value
) async -> Value? {
    let race = FirstResult<Value>()
    let work = Mutex<Task<Void, Never>?>(nil)
    return await withTaskCancellationHandler {
        await withCheckedContinuation { continuation in
            race.begin(continuation)
            let started = Task {
                race.finish(await operation())
            }
            work.withLock { $0 = started }
            let timer = Task {
                try? await clock.sleep(for: wait)
                race.finish(nil)
                started.cancel()
            }
            race.onFinish { timer.cancel() }
        }
    } onCancel: {
        race.finish(nil)
        work.withLock { $0 }?.cancel()
    }
}

/// The one answer of a race between an operation and a deadline: the first to finish resumes
/// the waiting caller, exactly once.
private final class FirstResult<Value: Sendable>: Sendable {
    private let state = Mutex<(continuation: CheckedContinuation<Value?, Never>?, done: Bool, cleanup: (@Sendable () -> Void)?)>(
        (nil, false, nil)
    )

    /// Remembers the caller to resume; resumes it at once with nil when the race was decided
    /// before it began (the caller was cancelled first).
    func begin(_ continuation: CheckedContinuation<Value?, Never>) {
        let decided = state.withLock { state -> Bool in
            guard !state.done else { return true }
            state.continuation = continuation
            return false
        }
        if decided { continuation.resume(returning: nil) }
    }

    /// Runs `cleanup` once the race is decided (at once if it already is).
    func onFinish(_ cleanup: @escaping @Sendable () -> Void) {
        let decided = state.withLock { state -> Bool in
            guard !state.done else { return true }
            state.cleanup = cleanup
            return false
        }
        if decided { cleanup() }
    }

    /// Resumes the caller with `value` unless someone finished first.
    func finish(_ value: Value?) {
        let (continuation, cleanup) = state.withLock { state -> (CheckedContinuation<Value?, Never>?, (@Sendable () -> Void)?) in
            guard !state.done else { return (nil, nil) }
            state.done = true
            defer { state.continuation = nil; state.cleanup = nil }
            return (state.continuation, state.cleanup)
        }
        continuation?.resume(returning: value)
        cleanup?()
    }
}
