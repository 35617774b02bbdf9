import Synchronization

/// When one request reached the points of a write that `Server-Timing`, the latency metrics and
/// traces report: its body parsed, its version's commit started and ended, the version written
/// to the last watcher.
///
/// The binding layer makes one per request and binds it to ``current`` while the request runs;
/// the graph marks the versions that request rendered (not other sessions' changes committed in
/// the same batch). Marks are clock reads, so measuring costs next to nothing.
package final class RequestTiming: Sendable {
    /// A point a request can reach.
    package enum Mark: Sendable {
        /// The request was read, routed, its session found and its body parsed.
        case parsed
        /// The store transaction with its version started.
        case commitStarted
        /// That transaction committed.
        case committed
        /// The version was written to the last watcher of its view model.
        case pushed
    }

    /// The marks reached so far; a later mark of one kind replaces an earlier one (a command's
    /// end after its start).
    package struct Marks: Sendable {
        /// See ``Mark/parsed``.
        package var parsed: ContinuousClock.Instant?
        /// See ``Mark/commitStarted``.
        package var commitStarted: ContinuousClock.Instant?
        /// See ``Mark/committed``.
        package var committed: ContinuousClock.Instant?
        /// See ``Mark/pushed``.
        package var pushed: ContinuousClock.Instant?
    }

    /// The timing of the request the current task serves, if any.
    @TaskLocal package static var current: RequestTiming?

    /// When the server started reading the request.
    package let received: ContinuousClock.Instant
    private let state = Mutex(Marks())

    /// Starts the timing of a request received at `received`.
    package init(received: ContinuousClock.Instant) {
        self.received = received
    }

    /// Notes that the request reached `mark` now.
    package func mark(_ mark: Mark, at instant: ContinuousClock.Instant = .now) {
        state.withLock { marks in
            switch mark {
            case .parsed: marks.parsed = instant
            case .commitStarted: marks.commitStarted = instant
            case .committed: marks.committed = instant
            case .pushed: marks.pushed = instant
            }
        }
    }

    /// The marks reached so far.
    package var marks: Marks { state.withLock { $0 } }
}
