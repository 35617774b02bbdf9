import Synchronization

/// Collects what another task hands over (the snapshots a graph sends a watcher, events,
/// log lines), in order, to read back from the test.
public final class Recorder<Value: Sendable>: Sendable {
    private let storage = Mutex<[Value]>([])

    /// Creates an empty recorder.
    public init() {}

    /// Records `value`.
    public func append(_ value: Value) { storage.withLock { $0.append(value) } }

    /// What was recorded so far.
    public var values: [Value] { storage.withLock { $0 } }

    /// The callback that records what it is given (to hand to `watch(…send:…)`).
    public var send: @Sendable (Value) -> Void { { [self] value in append(value) } }
}
