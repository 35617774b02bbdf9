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
    /// Least recently used first; ties by creation time, then by hash, so every backend agrees.
    func isLessRecentlyUsed(than other: StoredSession) -> Bool {
        if lastUsedAt != other.lastUsedAt { return lastUsedAt < other.lastUsedAt }
        if createdAt != other.createdAt { return createdAt < other.createdAt }
        return tokenHash.precedes(other.tokenHash)
    }
}
