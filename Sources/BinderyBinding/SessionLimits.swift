/// How many sessions may live and for how long.
public struct SessionLimits: Sendable {
    /// A session unused for this long is closed.
    public var idleTimeout: Duration
    /// At most this many sessions live at once; creating one more closes the least recently used.
    public var maxSessions: Int

    /// Creates limits; the defaults suit a demo server (30 minutes, 10 000 sessions).
    public init(idleTimeout: Duration = .seconds(1800), maxSessions: Int = 10_000) {
        self.idleTimeout = idleTimeout
        self.maxSessions = max(1, maxSessions)
    }
}
