extension Task where Failure == Never {
    /// The task's value if it arrives within `wait` on `clock`, else nil (the task goes on).
    func value(waitingUpTo wait: Duration, on clock: any Clock<Duration>) async -> Success? {
        await withTaskGroup(of: Success?.self) { group in
            group.addTask { await self.value }
            group.addTask {
                try? await clock.sleep(for: wait)
                return nil
            }
            let first = await group.next() ?? nil
            group.cancelAll()
            return first
        }
    }
}
