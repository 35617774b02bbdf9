import BinderyRuntime
import Synchronization

/// The live sessions, by token: creation, lookup, idle expiry and least-recently-used eviction.
///
/// Lookups are synchronous under a lock, so a cached read needs no task hop.
public final class SessionStore: Sendable {
    private let sessions = Mutex<[String: Session]>([:])
    private let limits: SessionLimits
    private let screens: [Screen]
    private let now: @Sendable () -> ContinuousClock.Instant

    /// Creates a store whose sessions' graphs serve `screens`.
    ///
    /// `now` is the clock for idle expiry; tests pass one they advance by hand.
    public init(
        limits: SessionLimits,
        screens: [Screen],
        now: @escaping @Sendable () -> ContinuousClock.Instant = { .now }
    ) {
        self.limits = limits
        self.screens = screens
        self.now = now
    }

    /// The number of live sessions.
    public var count: Int { sessions.withLock { $0.count } }

    /// Creates a session, evicting the least recently used one when the store is full.
    public func create() -> Session {
        let instant = now()
        let session = Session(
            token: SessionToken.make(), logID: SessionToken.makeLogID(),
            graph: ViewModelGraph(screens: screens), now: instant
        )
        let evicted = sessions.withLock { sessions -> [Session] in
            var evicted = Self.removeExpired(from: &sessions, before: instant - limits.idleTimeout)
            while sessions.count >= limits.maxSessions,
                let oldest = sessions.values.min(by: { $0.lastUsedAt < $1.lastUsedAt })
            {
                sessions[oldest.token] = nil
                evicted.append(oldest)
            }
            sessions[session.token] = session
            return evicted
        }
        close(evicted)
        return session
    }

    /// The live session with this token, marked as used; nil for unknown or expired tokens.
    public func session(for token: Substring) -> Session? {
        guard SessionToken.isWellFormed(token) else { return nil }
        let instant = now()
        let (found, expired) = sessions.withLock { sessions -> (Session?, Session?) in
            guard let session = sessions[String(token)] else { return (nil, nil) }
            guard session.lastUsedAt >= instant - limits.idleTimeout else {
                sessions[session.token] = nil
                return (nil, session)
            }
            session.touch(instant)
            return (session, nil)
        }
        close(expired.map { [$0] } ?? [])
        return found
    }

    /// Closes every session idle for longer than the limit; returns how many were closed.
    @discardableResult
    public func sweep() -> Int {
        let instant = now()
        let expired = sessions.withLock { Self.removeExpired(from: &$0, before: instant - limits.idleTimeout) }
        close(expired)
        return expired.count
    }

    /// Closes every session (server shutdown).
    public func closeAll() {
        close(sessions.withLock { sessions in
            defer { sessions.removeAll() }
            return Array(sessions.values)
        })
    }

    private static func removeExpired(from sessions: inout [String: Session], before limit: ContinuousClock.Instant) -> [Session] {
        let expired = sessions.values.filter { $0.lastUsedAt < limit }
        expired.forEach { sessions[$0.token] = nil }
        return expired
    }

    private func close(_ sessions: [Session]) {
        for session in sessions {
            Task { await session.graph.close() }
        }
    }
}
