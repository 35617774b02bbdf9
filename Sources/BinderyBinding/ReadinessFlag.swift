import Synchronization

/// Whether the server accepts work: true between start and the beginning of shutdown.
final class ReadinessFlag: Sendable {
    private let value = Atomic<Bool>(false)

    /// Sets the flag.
    func set(_ ready: Bool) { value.store(ready, ordering: .relaxed) }

    /// Reads the flag.
    var isReady: Bool { value.load(ordering: .relaxed) }
}
