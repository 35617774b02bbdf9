import Synchronization

/// The dirty flag of one hosted view model, set from Observation's change callbacks, by the
/// commands its snapshot showed (`CommandReaders`) and by its host.
///
/// It also says whether the Observation tracking of the last render is still installed: a
/// render asked for by anything but that tracking installs no second one, which would stay
/// registered with the view model until one of its properties changed.
///
/// Observation calls back synchronously from the mutating code (on the session's actor) but
/// through a `@Sendable` closure, so the flag is atomic. Firing takes the view model's snapshot
/// off its graph's board and schedules a flush; the signal holds what that needs itself rather
/// than a closure capturing it (one allocation fewer per hosted view model).
final class ChangeSignal: Sendable {
    private let dirty = Atomic<Bool>(true)
    private let tracking = Atomic<Bool>(false)
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

    /// Observation's callback: the last render's tracking has fired (and is gone).
    func trackedStateChanged() {
        tracking.store(false, ordering: .sequentiallyConsistent)
        fire()
    }

    /// Whether the tracking of the last tracked render is still installed: nothing the view
    /// model's code read has changed since.
    var isTracking: Bool {
        tracking.load(ordering: .sequentiallyConsistent)
    }

    /// Records that a tracking is about to be installed; called before the render, so that a
    /// change racing with the installation leaves the flag false rather than wrongly true.
    func beginTracking() {
        tracking.store(true, ordering: .sequentiallyConsistent)
    }

    /// Makes the next render install a new tracking (the view model was replaced).
    func dropTracking() {
        tracking.store(false, ordering: .sequentiallyConsistent)
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
