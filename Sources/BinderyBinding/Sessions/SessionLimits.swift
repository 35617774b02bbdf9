/// How many sessions may live and for how long.
public struct SessionLimits: Sendable {
    /// A session unused for this long is closed.
    public var idleTimeout: Duration
    /// At most this many sessions live at once; creating one more closes the least recently used
    /// session of the address holding the most.
    public var maxSessions: Int
    /// At most this many sessions per client address; one more closes (and deletes) that
    /// address's own least recently used session, never another client's.
    public var perAddress: Int
    /// Sessions one address may create at once; beyond, creation is refused (429) until the
    /// quota refills at ``creationsPerSecond``.
    public var creationBurst: Int
    /// How fast an address's creation quota refills.
    public var creationsPerSecond: Double
    /// A quiet session (no stream, nothing running) unused for this long leaves memory and stays
    /// in the store, from which its next request restores it; nil keeps sessions in memory.
    public var hibernateAfter: Duration?
    /// How long the answer to a request with an `Idempotency-Key` is kept for its retries (while
    /// its session lives).
    public var idempotencyKeyLifetime: Duration

    /// Creates limits; the defaults suit a demo server (30 minutes, 10 000 sessions, 500 per
    /// address, 1 000 created at once and 20 a second after that per address, no hibernation,
    /// idempotency keys kept 24 hours).
    public init(
        idleTimeout: Duration = .seconds(1800), maxSessions: Int = 10_000, perAddress: Int = 500,
        creationBurst: Int = 1000, creationsPerSecond: Double = 20, hibernateAfter: Duration? = nil,
        idempotencyKeyLifetime: Duration = .seconds(86_400)
    ) {
        self.hibernateAfter = hibernateAfter
        self.idempotencyKeyLifetime = max(.seconds(1), idempotencyKeyLifetime)
        self.idleTimeout = idleTimeout
        self.maxSessions = max(1, maxSessions)
        self.perAddress = max(1, perAddress)
        self.creationBurst = max(1, creationBurst)
        self.creationsPerSecond = max(0.001, creationsPerSecond)
    }
}
