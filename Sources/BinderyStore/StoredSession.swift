import Foundation

/// A session as the store keeps it: its token hash and when it was created and last used.
public struct StoredSession: Hashable, Sendable {
    /// The hash of the session's token.
    public var tokenHash: SessionTokenHash
    /// When the session was created, as given by the caller.
    public var createdAt: Date
    /// When the session was last used; never moves backwards.
    public var lastUsedAt: Date

    /// A session record.
    public init(tokenHash: SessionTokenHash, createdAt: Date, lastUsedAt: Date) {
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
