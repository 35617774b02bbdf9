extension RemoteViewModel {
    /// Every version of the snapshot the server sends from now on, the one held first: each
    /// exactly once, in order, from answers and the event stream alike (`bindery-watch` prints them).
    public func versions() -> AsyncStream<JSONValue> {
        let (stream, continuation) = AsyncStream.makeStream(of: JSONValue.self)
        let id = nextWatcher
        nextWatcher += 1
        if let server { continuation.yield(server) }
        watchers[id] = continuation
        continuation.onTermination = { _ in Task { @MainActor in self.watchers[id] = nil } }
        return stream
    }

    /// Waits until `condition` holds of this view model (checked now and after every change).
    /// Throws `CancellationError` when the task is cancelled first.
    public func wait(until condition: (RemoteViewModel) -> Bool) async throws {
        let (changes, continuation) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
        let id = nextWatcher
        nextWatcher += 1
        changeWaiters[id] = continuation
        defer { changeWaiters[id] = nil }
        if condition(self) { return }
        for await _ in changes where condition(self) { return }
        throw CancellationError()
    }

    /// Wakes ``wait(until:)``.
    func notifyChange() {
        for waiter in changeWaiters.values { waiter.yield() }
    }
}
