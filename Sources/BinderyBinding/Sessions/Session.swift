import BinderyRuntime
import BinderyStore
import Synchronization

/// One client's session: a secret token and the live graph of view models it owns.
package final class Session: Sendable {
    /// The secret that identifies the session (128 random bits). Never logged.
    let secret: SessionSecret
    /// The SHA-256 of the token: how the store knows the session.
    package let tokenHash: SessionTokenHash
    /// A short, non-secret name for logs and metrics.
    package let logID: String
    /// The session's view models.
    package let graph: ViewModelGraph
    /// The client address that created or restored it (its quota key), if known.
    let address: String?
    /// Who the session is to other users (presence, who deleted what).
    package let collaborator: Collaborator
    private let use: Mutex<(lastUsed: ContinuousClock.Instant, openStreams: Int, written: Bool)>

    /// Creates a session around a new graph; `written` when its client has written to it before
    /// (a session restored with view models).
    init(
        secret: SessionSecret, tokenHash: SessionTokenHash, logID: String, graph: ViewModelGraph,
        now: ContinuousClock.Instant, address: String? = nil, written: Bool = false
    ) {
        self.secret = secret
        self.tokenHash = tokenHash
        self.logID = logID
        self.graph = graph
        self.address = address
        self.collaborator = Collaborator(session: tokenHash)
        self.use = Mutex((now, 0, written))
    }

    /// The secret as the client shows it: 32 lowercase hex digits. Never logged.
    package var token: String { secret.token }

    /// When a request last used the session.
    var lastUsedAt: ContinuousClock.Instant { use.withLock { $0.lastUsed } }

    /// When the session was last active as of `now`: `now` while an event stream is open (a tab
    /// that only watches is in use), else its last request.
    func lastActive(at now: ContinuousClock.Instant) -> ContinuousClock.Instant {
        use.withLock { $0.openStreams > 0 ? now : $0.lastUsed }
    }

    /// Whether its client ever wrote to it (an input, a command): such a session gives way to a
    /// new one only when no session that was only read can.
    package var hasBeenWritten: Bool { use.withLock { $0.written } }

    /// Records that its client wrote to it.
    package func noteWritten() {
        use.withLock { $0.written = true }
    }

    /// Records a use at `now`.
    func touch(_ now: ContinuousClock.Instant) {
        use.withLock { $0.lastUsed = now }
    }

    /// Records an event stream opening (`opened`) or ending at `now`; the session counts as in
    /// use while any is open, and from when the last one ended.
    func streamChanged(opened: Bool, at now: ContinuousClock.Instant) {
        use.withLock {
            $0.openStreams += opened ? 1 : -1
            $0.lastUsed = now
        }
    }
}
