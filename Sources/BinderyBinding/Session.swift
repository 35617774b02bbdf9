import BinderyRuntime
import BinderyStore
import Synchronization

/// One client's session: a secret token and the live graph of view models it owns.
public final class Session: Sendable {
    /// The secret that identifies the session (128 random bits, hex). Never logged.
    public let token: String
    /// The SHA-256 of the token: how the store knows the session.
    public let tokenHash: SessionTokenHash
    /// A short, non-secret name for logs and metrics.
    public let logID: String
    /// The session's view models.
    public let graph: ViewModelGraph
    private let lastUsed: Mutex<ContinuousClock.Instant>

    /// Creates a session around a new graph.
    init(token: String, tokenHash: SessionTokenHash, logID: String, graph: ViewModelGraph, now: ContinuousClock.Instant) {
        self.token = token
        self.tokenHash = tokenHash
        self.logID = logID
        self.graph = graph
        self.lastUsed = Mutex(now)
    }

    /// When a request last used the session.
    var lastUsedAt: ContinuousClock.Instant { lastUsed.withLock { $0 } }

    /// Records a use at `now`.
    func touch(_ now: ContinuousClock.Instant) {
        lastUsed.withLock { $0 = now }
    }
}
