import Synchronization

/// The dirty flag of one hosted view model, set from Observation's change callbacks.
///
/// Observation calls back synchronously from the mutating code (on the session's actor) but
/// through a `@Sendable` closure, so the flag is atomic and the reaction is a `@Sendable` closure.
final class ChangeSignal: Sendable {
    private let dirty = Atomic<Bool>(true)
    private let reaction: @Sendable () -> Void

    /// Creates a signal that starts dirty and runs `reaction` every time it fires.
    init(reaction: @escaping @Sendable () -> Void) {
        self.reaction = reaction
    }

    /// Marks the view model as changed and runs the reaction.
    func fire() {
        dirty.store(true, ordering: .sequentiallyConsistent)
        reaction()
    }

    /// Marks the view model as needing a render at the next flush, without scheduling one.
    func markDirty() {
        dirty.store(true, ordering: .sequentiallyConsistent)
    }

    /// Returns whether the view model changed since the last call, and clears the flag.
    func takeDirty() -> Bool {
        dirty.exchange(false, ordering: .sequentiallyConsistent)
    }
}
