import BinderyRuntime
import BinderyStore
import Foundation
import Synchronization

/// The live sessions, by token: creation, lookup, idle expiry and least-recently-used eviction,
/// in memory in front of the durable store.
///
/// Lookups of live sessions are synchronous under a lock, so a cached read needs no task hop.
/// A session that is not in memory (after a restart, or evicted from memory) is restored from
/// the store on its first request; memory is a cache, the store is what lasts.
package final class SessionRegistry: Sendable {
    let sessions = Mutex(LiveSessions())
    let restoring = Mutex<[SessionSecret: Task<Session?, any Error>]>([:])
    let limits: SessionLimits
    private let screens: [String: Screen]
    let store: any SessionStateStore
    let now: @Sendable () -> ContinuousClock.Instant
    let wallClock: @Sendable () -> Date
    let metrics: BinderyMetrics?
    private let quota: CreationQuota
    let commandLease: TimeInterval
    let reserved: Set<SessionTokenHash>
    /// Sessions closed since the last sweep began (see ``sweep()``).
    let closedSinceSweep = Atomic<Int>(0)
    /// What every session's persistence shares.
    let persistenceContext: StorePersistence.Context
    /// What sensitive values are sealed with in the store.
    var sealing: SealingKey { persistenceContext.sealing }
    /// The sessions' writes and commands that carry an `Idempotency-Key`.
    let idempotency: IdempotentRequests
    /// How the app checks credentials; nil when it signs nobody in.
    let users: Users?
    /// Failed sign-ins, per account and per address.
    let throttle: SignInThrottle
    /// The records of the users whose sessions are here.
    let spaces: UserSpaces
    /// What this node holds of a shared store: its sessions, and the record spaces it loaded.
    let held: HeldSpaces
    /// This node's id in the store's announcements.
    let node: String
    /// How many times sessions were dropped for another node's notice (signed out, or signed in
    /// under a new token): a restore that a drop overtook checks its token again.
    let drops = Atomic<Int>(0)

    /// Creates a store whose sessions' graphs serve `screens` and commit to `store`.
    ///
    /// `now` is the clock for idle expiry and `wallClock` the time written to the store; tests
    /// pass ones they advance by hand. `reserved` are store entries that are not clients'
    /// sessions (the shared models' records): the store's trim never deletes them. `users` checks
    /// credentials, `userModels` are the models whose records belong to users, and `sealing` is
    /// what sensitive inputs are sealed with in the store.
    package init(
        limits: SessionLimits,
        screens: [Screen],
        store: any SessionStateStore = MemoryStore(),
        now: @escaping @Sendable () -> ContinuousClock.Instant = { .now },
        wallClock: @escaping @Sendable () -> Date = { Date() },
        commandLease: TimeInterval = 15,
        reserved: Set<SessionTokenHash> = [],
        metrics: BinderyMetrics? = nil,
        users: Users? = nil,
        throttle: SignInThrottle = SignInThrottle(),
        userModels: [any SharedModel] = [],
        node: String = UUID().uuidString,
        sealing: SealingKey = .random()
    ) {
        self.users = users
        self.throttle = throttle
        self.held = HeldSpaces(feed: store.capabilities.changeFeed)
        self.spaces = UserSpaces(store: store, models: userModels, holds: held)
        self.node = node
        self.commandLease = commandLease
        self.reserved = reserved
        self.metrics = metrics
        self.limits = limits
        self.quota = CreationQuota(burst: limits.creationBurst, perSecond: limits.creationsPerSecond)
        self.screens = Screen.byName(screens)
        self.store = store
        self.now = now
        self.wallClock = wallClock
        self.persistenceContext = .init(store: store, now: wallClock, commandLease: commandLease, metrics: metrics, sealing: sealing)
        self.idempotency = IdempotentRequests(
            store: store, lifetime: limits.idempotencyKeyLifetime, now: wallClock, metrics: metrics
        )
    }

    /// The number of live sessions in memory.
    package var count: Int { sessions.withLock { $0.count } }

    /// Creates a session for a client at `address`, committed to the store before it is answered.
    ///
    /// An address that created too many too fast is refused (``ViewModelError/tooManySessions(retryAfter:)``).
    /// One over its own limit loses its own least recently used session (closed and deleted);
    /// when memory is full, the least recently used session of the address holding the most
    /// leaves memory (it stays in the store).
    package func create(from address: String? = nil) async throws(ViewModelError) -> Session {
        let key = address.map(CreationQuota.key(for:))
        if let key, let wait = quota.admit(key, at: now()) {
            throw .tooManySessions(retryAfter: max(1, Int(wait.timeInterval.rounded(.up))))
        }
        let secret = SessionSecret.random()
        let hash = SessionTokenHash(token: secret.token)
        do {
            _ = try await store.createSession(hash, at: wallClock())
        } catch {
            throw .storeUnavailable
        }
        // Nobody else knows the token yet: nothing was written that this node could miss.
        do {
            try await held.acquire(hash)
        } catch {
            throw .storeUnavailable
        }
        let session = makeSession(secret: secret, hash: hash, restored: [:], address: key)
        insert(session)
        return session
    }

    /// The snapshot of `path` as a new session would show it, rendered by a graph that is dropped
    /// at once: reading a screen without a session keeps nothing on the server, so a flood of
    /// such reads has nothing to evict.
    package func visitorSnapshot(_ path: String) async throws(ViewModelError) -> EncodedSnapshot {
        let graph = ViewModelGraph(screens: screens, persistence: nil, restored: [:], viewer: Viewer(user: nil))
        defer { Task { await graph.close() } }
        return try await graph.snapshot(path)
    }

    /// Records that an event stream of `session` opened or ended: an open stream keeps the
    /// session in use (it is neither expired nor evicted first while a tab watches).
    package func streamChanged(_ session: Session, opened: Bool) {
        session.streamChanged(opened: opened, at: now())
    }

    /// The live session with this token, marked as used; nil for unknown or expired tokens and
    /// for sessions that are only in the store (see ``restore(_:)``).
    package func session(for token: Substring) -> Session? {
        guard let secret = SessionSecret(token: token) else { return nil }
        let instant = now()
        let (found, expired) = sessions.withLock { sessions -> (Session?, Session?) in
            guard let session = sessions[secret] else { return (nil, nil) }
            guard session.lastActive(at: instant) >= instant - limits.idleTimeout else {
                sessions[session.secret] = nil
                return (nil, session)
            }
            session.touch(instant)
            return (session, nil)
        }
        close(expired.map { [$0] } ?? [])
        return found
    }

    /// The live session whose token has this hash, if it is in memory.
    func live(hash: SessionTokenHash) -> Session? {
        sessions.withLock { $0[hash: hash] }
    }

    /// Every session in memory.
    var liveSessions: [Session] {
        sessions.withLock { Array($0.values) }
    }

    /// Ends every session at server shutdown and returns the deferred commands that were
    /// running in them (`[key: command name]`), for the store to record as interrupted.
    package func shutDownAll() async -> [ViewModelKey: String] {
        let live = sessions.withLock { sessions in
            defer { sessions.removeAll() }
            return Array(sessions.values)
        }
        var running: [ViewModelKey: String] = [:]
        for session in live {
            for (path, name) in await session.graph.shutDown() {
                running[ViewModelKey(session: session.tokenHash, path: path)] = name
            }
        }
        return running
    }

    func makeSession(
        secret: SessionSecret, hash: SessionTokenHash, restored: [String: RestoredViewModel], address: String? = nil,
        user: User? = nil
    ) -> Session {
        let persistence = StorePersistence(context: persistenceContext, session: hash)
        let viewer = Viewer(user: user, anonymous: Collaborator(session: hash))
        let session = Session(
            secret: secret, tokenHash: hash, logID: SessionToken.makeLogID(),
            graph: ViewModelGraph(screens: screens, persistence: persistence, restored: restored, viewer: viewer),
            viewer: viewer, now: now(), address: address, written: !restored.isEmpty
        )
        if users != nil { viewer.connect(SessionSignIn(registry: self, session: session)) }
        return session
    }

    /// Adds a session to memory (or finds the one already there). Beyond its address's limit,
    /// that address's least recently used session is closed and deleted; beyond the total, the
    /// least recently used session of the address holding the most leaves memory.
    @discardableResult
    func insert(_ session: Session) -> Session {
        let instant = now()
        let (kept, evicted, deleted) = sessions.withLock { sessions -> (Session, [Session], [Session]) in
            if let existing = sessions[session.secret] { return (existing, [], []) }
            var evicted = Self.removeExpired(from: &sessions, before: instant - limits.idleTimeout, at: instant)
            // A copy of the same session under a token another node replaced (its notice not
            // here yet): that token is dead, and one copy per session is all the change feed follows.
            if let stale = sessions[hash: session.tokenHash] {
                sessions[stale.secret] = nil
                evicted.append(stale)
            }
            var deleted: [Session] = []
            if let address = session.address {
                while sessions.count(from: address) >= limits.perAddress,
                    let oldest = sessions.leastRecentlyActive(from: address, at: instant)
                {
                    sessions[oldest.secret] = nil
                    deleted.append(oldest)
                }
            }
            while sessions.count >= limits.maxSessions,
                let oldest = sessions.leastRecentlyActive(from: sessions.busiestAddress, at: instant)
            {
                sessions[oldest.secret] = nil
                evicted.append(oldest)
            }
            sessions[session.secret] = session
            return (session, evicted, deleted)
        }
        close(evicted + deleted)
        // An address's own surplus is gone for good: in the store too, or it would push other
        // clients' sessions out of the store instead.
        let store = store
        for session in deleted {
            Task { _ = try? await store.deleteSession(session.tokenHash) }
        }
        return kept
    }

    /// Ends sessions that left memory: their graphs close (their streams get `end`), and their
    /// users' records are let go when no other session of theirs is here.
    func close(_ sessions: [Session]) {
        closedSinceSweep.add(sessions.count, ordering: .relaxed)
        for session in sessions {
            if let user = session.user { spaces.release(user.id) }
            held.release(session.tokenHash)
            Task { await session.graph.close() }
        }
    }
}

extension Duration {
    /// The duration in seconds, as Foundation counts time.
    var timeInterval: TimeInterval {
        let (seconds, attoseconds) = components
        return TimeInterval(seconds) + TimeInterval(attoseconds) / 1e18
    }
}
