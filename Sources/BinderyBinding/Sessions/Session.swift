import BinderyRuntime
import BinderyStore
import Synchronization

/// One client's session: a secret token, who it is signed in as, and the live graph of view
/// models it owns.
package final class Session: Sendable {
    /// The secret that identifies the session now (128 random bits); a sign-in replaces it. Never
    /// logged.
    var secret: SessionSecret { use.withLock { $0.secret } }
    /// The session's key in the store: the SHA-256 of its first token, kept when a sign-in
    /// replaces the token (see ``StoredSession/tokenHash``).
    package let tokenHash: SessionTokenHash
    /// A short, non-secret name for logs and metrics.
    package let logID: String
    /// The session's view models.
    package let graph: ViewModelGraph
    /// Who the session is: anonymous or signed in, as its view models see it.
    package let viewer: Viewer
    /// The client address that created or restored it (its quota key), if known.
    let address: String?
    private let use: Mutex<Use>

    private struct Use {
        var secret: SessionSecret
        var lastUsed: ContinuousClock.Instant
        var openStreams = 0
        var written: Bool
    }

    /// Creates a session around a new graph; `written` when its client has written to it before
    /// (a session restored with view models).
    init(
        secret: SessionSecret, tokenHash: SessionTokenHash, logID: String, graph: ViewModelGraph, viewer: Viewer,
        now: ContinuousClock.Instant, address: String? = nil, written: Bool = false
    ) {
        self.tokenHash = tokenHash
        self.logID = logID
        self.graph = graph
        self.viewer = viewer
        self.address = address
        self.use = Mutex(Use(secret: secret, lastUsed: now, written: written))
    }

    /// The secret as the client shows it: 32 lowercase hex digits. Never logged.
    package var token: String { secret.token }

    /// Who the session is to other users (presence, who deleted what): its user's name once
    /// signed in.
    package var collaborator: Collaborator { viewer.collaborator }

    /// The signed-in user, if any (read without telling Observation).
    package var user: User? { viewer.currentUser }

    /// Replaces the secret (a sign-in); the registry re-indexes the session under it.
    func replaceSecret(with secret: SessionSecret) {
        use.withLock { $0.secret = secret }
    }

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
