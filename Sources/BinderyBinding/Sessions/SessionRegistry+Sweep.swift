import BinderyStore
import Foundation

/// The sweep: idle expiry, hibernation, the store's trim and the sessions' last use.
extension SessionRegistry {
    /// Closes sessions idle for longer than the limit, in memory and in the store, lets quiet ones
    /// hibernate, keeps at most `maxSessions` in the store, and records the use of live ones;
    /// returns how many left memory.
    ///
    /// The store's trim never deletes a session in memory (nor a reserved entry): it takes those
    /// memory let go first. Trimmed by use alone, an idle client's live session would go while
    /// a flooding address's sessions, pushed out of memory but more recent, stayed; its writes
    /// would then fail and a restart would lose it.
    @discardableResult
    package func sweep() async -> Int {
        // Sessions closed before this sweep began (by the previous sweep, or evicted or expired on
        // insert) are freed by now; the ones this sweep closes count for the next sweep.
        let closedBefore = closedSinceSweep.exchange(0, ordering: .relaxed)
        let instant = now()
        let (expired, live) = sessions.withLock { sessions in
            (Self.removeExpired(from: &sessions, before: instant - limits.idleTimeout, at: instant), Array(sessions.values))
        }
        close(expired)
        let hibernated = await hibernateQuietSessions(at: instant)
        let wall = wallClock()
        let store = store
        // All at once: the store's writer groups them into a few transactions.
        await withTaskGroup(of: Void.self) { group in
            for session in live {
                let usedAt = wall - (instant - session.lastActive(at: instant)).timeInterval
                let hash = session.tokenHash
                group.addTask { try? await store.touchSession(hash, at: usedAt) }
            }
        }
        _ = try? await store.purgeSessions(idleSince: wall - limits.idleTimeout.timeInterval)
        _ = try? await store.purgeIdempotencyKeys(claimedBefore: wall - limits.idempotencyKeyLifetime.timeInterval)
        let sparing = reserved.union(live.map(\.tokenHash))
        _ = try? await store.evictSessions(beyond: limits.maxSessions, sparing: sparing)
        // glibc keeps what freed sessions held in its arenas (one per thread that allocated), so
        // after a wave of sessions RSS stayed near its peak although the heap in use was back at
        // its baseline (docs/history/soak/README.md: retention, not a leak). Give those pages back, at
        // most once a sweep and only when sessions were closed: a few ms.
        if closedBefore > 0 { AllocatorHeap.trim() }
        return expired.count + hibernated
    }

    /// Lets quiet sessions unused for ``SessionLimits/hibernateAfter`` leave memory (they stay in
    /// the store, and their next request restores them); returns how many left.
    ///
    /// A session used after the check is kept: the removal re-checks its last use under the same
    /// lock a request's lookup marks it used under.
    private func hibernateQuietSessions(at instant: ContinuousClock.Instant) async -> Int {
        guard let after = limits.hibernateAfter else { return 0 }
        let cutoff = instant - after
        let unused = sessions.withLock { $0.values.filter { $0.lastActive(at: instant) < cutoff } }
        var quiet: [Session] = []
        for session in unused where await session.graph.isQuiet { quiet.append(session) }
        let left = sessions.withLock { sessions in
            quiet.filter { session in
                guard sessions[session.secret] === session, session.lastActive(at: now()) < cutoff else { return false }
                sessions[session.secret] = nil
                return true
            }
        }
        close(left)
        metrics?.sessionsHibernated(left.count)
        return left.count
    }

    /// How long a session must have gone unused here before another node's write lets it go: a
    /// request that has just found it keeps it.
    static let letGoAfter: Duration = .seconds(1)

    /// Lets `session` leave memory, and the store stop announcing it here, because another node
    /// committed a version of it that nobody here follows: that node is the one using it (nginx
    /// places a session's requests on one node; this copy is left from a first request, a sign-in
    /// or a failover). Kept when it is followed here or was used in the last ``letGoAfter``; its
    /// next request here, if any, restores it from the store.
    func letGo(_ session: Session) async {
        guard await session.graph.isQuiet else { return }
        let instant = now()
        let left = sessions.withLock { sessions -> Bool in
            guard sessions[session.secret] === session, session.lastActive(at: instant) < instant - Self.letGoAfter else {
                return false
            }
            sessions[session.secret] = nil
            return true
        }
        guard left else { return }
        close([session])
        metrics?.sessionLetGo()
    }

    /// Takes the sessions last active before `limit` out of `sessions`; answers them.
    static func removeExpired(
        from sessions: inout LiveSessions, before limit: ContinuousClock.Instant, at now: ContinuousClock.Instant
    ) -> [Session] {
        let expired = sessions.values.filter { $0.lastActive(at: now) < limit }
        expired.forEach { sessions[$0.secret] = nil }
        return expired
    }
}
