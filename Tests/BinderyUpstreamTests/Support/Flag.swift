import Synchronization

/// A flag set once from another task.
final class Flag: Sendable {
    private let state = Mutex(false)

    /// Whether the flag is set.
    var isSet: Bool { state.withLock { $0 } }

    /// Sets the flag.
    func set() { state.withLock { $0 = true } }
}
