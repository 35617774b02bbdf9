extension Task where Failure == Never {
    /// The task's value if it arrives within `wait` on `clock`, else nil (the task goes on).
    func value(waitingUpTo wait: Duration, on clock: any Clock<Duration>) async -> Success? {
        await firstResult(within: wait, on: clock) { await self.value }
    }
}

/// What `operation` returns if it finishes within `wait` on `clock`; nil once the time is up
/// (the operation is then cancelled).
public func firstResult<Value: Sendable>(
    within wait: Duration, on clock: any Clock<Duration>, _ operation: @escaping @Sendable () async -> Value
) async -> Value? {
    await withTaskGroup(of: Value?.self) { group in
        group.addTask { await operation() }
        group.addTask {
            try? await clock.sleep(for: wait)
            return nil
        }
        let first = await group.next() ?? nil
        group.cancelAll()
        return first
    }
}
