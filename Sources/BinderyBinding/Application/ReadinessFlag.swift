import Synchronization

/// A readiness condition read on every `/readyz`: the server between start and shutdown, the store
/// while it answers.
final class ReadinessFlag: Sendable {
    private let value: Atomic<Bool>

    /// Creates the flag, down unless told otherwise.
    init(_ ready: Bool = false) {
        value = Atomic(ready)
    }

    /// Sets the flag.
    func set(_ ready: Bool) { value.store(ready, ordering: .relaxed) }

    /// Reads the flag.
    var isReady: Bool { value.load(ordering: .relaxed) }
}
