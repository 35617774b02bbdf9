/// The renders that showed a ``Command``'s state in a snapshot, told once when it next changes.
///
/// A snapshot's `commands` member is read by Bindery, not by the view model's code: nothing the
/// view model reads depends on it, so a change to it needs a new render but no new Observation
/// tracking of the view model (see ``ChangeSignal/isTracking``). That spares every rendered
/// command a registrar and a tracking entry of its own, about half a kilobyte. View-model code
/// that reads a command (a `running` output) still goes through Observation.
struct CommandReaders {
    /// The signal of the view model whose snapshot is being rendered on this task, if any.
    @TaskLocal static var rendering: ChangeSignal?

    /// Almost always the one render that shows the command; more only when several view models'
    /// snapshots show it (a cell's, and its list's).
    private var first: ChangeSignal?
    private var others: [ChangeSignal] = []

    /// Remembers the render in progress, if any, as a reader.
    mutating func noteRead() {
        guard let signal = Self.rendering, signal !== first else { return }
        if first == nil {
            first = signal
        } else if !others.contains(where: { $0 === signal }) {
            others.append(signal)
        }
    }

    /// Fires every reader's signal and forgets them: a render that runs again reads again.
    mutating func changed() {
        guard let first else { return }
        let others = self.others
        self.first = nil
        self.others = []
        first.fire()
        others.forEach { $0.fire() }
    }
}
