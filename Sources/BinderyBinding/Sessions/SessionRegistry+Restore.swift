import BinderyRuntime
import BinderyStore
import Foundation

/// Restoring: a session the store keeps, brought back into memory on its first request here.
extension SessionRegistry {
    /// The session with this token: the live one, or the one the store keeps, restored (its
    /// view models come back lazily with their versions). Nil for unknown or idle-expired ones.
    ///
    /// A session restored for a client at `address` counts toward that address's limit.
    package func restore(_ token: Substring, from address: String? = nil) async throws(ViewModelError) -> Session? {
        if let live = session(for: token) { return live }
        guard let key = SessionSecret(token: token) else { return nil }
        let quotaKey = address.map(CreationQuota.key(for:))
        let task = restoring.withLock { restoring in
            if let running = restoring[key] { return running }
            let task = Task { try await self.load(key, address: quotaKey) }
            restoring[key] = task
            return task
        }
        defer { _ = restoring.withLock { $0.removeValue(forKey: key) } }
        do {
            return try await task.value
        } catch {
            throw .storeUnavailable
        }
    }

    /// Reads the session of `secret` from the store and puts it in memory (held in a shared store
    /// first); nil when the store has none, or an idle-expired one.
    private func load(_ secret: SessionSecret, address: String?) async throws -> Session? {
        let token = secret.token
        let dropsBefore = drops.load(ordering: .acquiring)
        guard let stored = try await store.session(SessionTokenHash(token: token)) else { return nil }
        guard wallClock().timeIntervalSince(stored.lastUsedAt) <= limits.idleTimeout.timeInterval else { return nil }
        if let live = session(for: token[...]) { return live }
        let key = stored.tokenHash
        // Held before its view models are read: another node's write from now on is announced here.
        try await held.acquire(key)
        var claimed = true
        defer { if claimed { held.release(key) } }
        let restored = StorePersistence.restored(
            from: try await store.viewModels(of: key), store: store, now: wallClock(), lease: commandLease,
            sealing: persistenceContext.sealing
        )
        // A signed-in session's user comes back with it, and their records are loaded first.
        let user = stored.user.flatMap { try? JSONDecoder().decode(User.self, from: $0.profile) }
        if let user { try await spaces.acquire(user.id) }
        let session = makeSession(secret: secret, hash: key, restored: restored, address: address, user: user)
        let kept = insert(session)
        if kept !== session, let user { spaces.release(user.id) }
        // The session in memory keeps the claim until it leaves (``close(_:)``).
        if kept === session { claimed = false }
        // A notice that came while this read the store found nothing here to drop: ask again.
        if kept === session, drops.load(ordering: .acquiring) != dropsBefore,
            try await store.session(SessionTokenHash(token: token))?.tokenHash != key
        {
            let removed = sessions.withLock { live -> Bool in
                guard live[secret] === session else { return false }
                live[secret] = nil
                return true
            }
            if removed { close([session]) }
            return nil
        }
        return kept
    }
}
