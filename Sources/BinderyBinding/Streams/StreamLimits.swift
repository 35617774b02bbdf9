/// Bounds on open event streams, so watchers cannot exhaust the server.
public struct StreamLimits: Sendable {
    /// Streams one session may hold open at once.
    public var perSession: Int
    /// Streams the whole server may hold open at once.
    public var total: Int
    /// How often an idle stream gets a heartbeat comment (also how fast dead clients are noticed).
    public var heartbeat: Duration

    /// Creates limits; defaults: 16 per session, 1000 in total, a heartbeat every 15 seconds.
    public init(perSession: Int = 16, total: Int = 1000, heartbeat: Duration = .seconds(15)) {
        self.perSession = perSession
        self.total = total
        self.heartbeat = heartbeat
    }
}
