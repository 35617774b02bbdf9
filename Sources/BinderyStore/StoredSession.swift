import Foundation

/// A session as the store keeps it: its token hash and when it was created and last used.
package struct StoredSession: Hashable, Sendable {
    /// The hash of the session's token.
    package var tokenHash: SessionTokenHash
    /// When the session was created, as given by the caller.
    package var createdAt: Date
    /// When the session was last used; never moves backwards.
    package var lastUsedAt: Date

    /// A session record.
    package init(tokenHash: SessionTokenHash, createdAt: Date, lastUsedAt: Date) {
        self.tokenHash = tokenHash
        self.createdAt = createdAt
        self.lastUsedAt = lastUsedAt
    }
}

extension StoredSession {
    /// How much later than the recorded last use a write must be to move it (seconds). Moving it at
    /// every commit rewrote the session's row and its by-use index entry in SQLite, and made a new
    /// row version in PostgreSQL, for every write. The registry's sweep records live sessions'
    /// use exactly (``SessionStateStore/touchSession(_:at:)``), so only a session written and then
    /// left before a sweep looks up to this much older: its expiry comes that much sooner.
    package static let writeUseGranularity: TimeInterval = 30

    /// Least recently used first; ties by creation time, then by hash, so every backend agrees.
    func isLessRecentlyUsed(than other: StoredSession) -> Bool {
        if lastUsedAt != other.lastUsedAt { return lastUsedAt < other.lastUsedAt }
        if createdAt != other.createdAt { return createdAt < other.createdAt }
        return tokenHash.precedes(other.tokenHash)
    }
}
