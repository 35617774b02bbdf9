import Foundation

/// A session as the store keeps it: its key, when it was created and last used, and who it is
/// signed in as.
package struct StoredSession: Hashable, Sendable {
    /// The session's key: the hash of its first token. Its view models, version log and keys are
    /// stored under it; a sign-in gives the session a new token (its credential) but keeps its key.
    package var tokenHash: SessionTokenHash
    /// When the session was created, as given by the caller.
    package var createdAt: Date
    /// When the session was last used; never moves backwards.
    package var lastUsedAt: Date
    /// Who the session is signed in as; nil while anonymous.
    package var user: StoredUser?

    /// A session record.
    package init(tokenHash: SessionTokenHash, createdAt: Date, lastUsedAt: Date, user: StoredUser? = nil) {
        self.tokenHash = tokenHash
        self.createdAt = createdAt
        self.lastUsedAt = lastUsedAt
        self.user = user
    }
}

/// The user a session is signed in as, as the store keeps it: the id it indexes sessions by and
/// an opaque profile (the user's JSON: name, roles, claims), never a credential.
package struct StoredUser: Hashable, Sendable {
    /// The user's id.
    package var id: String
    /// The user's profile, opaque to the store.
    package var profile: Data

    /// A stored user.
    package init(id: String, profile: Data) {
        self.id = id
        self.profile = profile
    }
}

/// What a row of the sessions table is.
package enum SessionKind: Sendable, Hashable {
    /// A client's session: idle expiry and the store's trim delete it.
    case client
    /// A space that holds records (a shared model's, a user's): never expired, never trimmed.
    case records
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
