import Synchronization

/// The dirty flag of one hosted view model, set from Observation's change callbacks.
///
/// Observation calls back synchronously from the mutating code (on the session's actor) but
/// through a `@Sendable` closure, so the flag is atomic. Firing takes the view model's snapshot
/// off its graph's board and schedules a flush; the signal holds what that needs itself rather
/// than a closure capturing it (one allocation fewer per hosted view model).
final class ChangeSignal: Sendable {
    private let dirty = Atomic<Bool>(true)
    private let path: String
    private let board: SnapshotBoard
    private weak let graph: ViewModelGraph?

    /// Creates a signal that starts dirty; firing it makes `path` stale on `board` and schedules
    /// a flush of `graph` (if it still exists).
    init(path: String, board: SnapshotBoard, graph: ViewModelGraph) {
        self.path = path
        self.board = board
        self.graph = graph
    }

    /// Marks the view model as changed, its published snapshot as stale, and schedules a flush.
    func fire() {
        dirty.store(true, ordering: .sequentiallyConsistent)
        board.invalidate(path)
        graph?.scheduleFlush()
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
