import Foundation

/// Durable session state: sessions, each view model's persisted state and version, and a bounded
/// log of recent versions. Shaped for an embedded backend (SQLite) and a shared one (PostgreSQL):
/// every view-model write carries the version it replaces and is refused with
/// ``StoreError/conflict(_:expected:stored:)`` if that is not the stored one.
///
/// Times are always given by the caller, so tests control them. A write returns only after the
/// transaction holding it has committed.
package protocol SessionStateStore: Sendable {
    /// Creates a session whose key (and first credential) is `tokenHash`; throws
    /// ``StoreError/sessionExists(_:)`` if the hash is taken. A ``SessionKind/records`` space is
    /// never purged nor trimmed.
    func createSession(_ tokenHash: SessionTokenHash, at time: Date, kind: SessionKind) async throws -> StoredSession

    /// The session whose current credential (the hash of its current token) is `credential`, or
    /// `nil`; a token replaced by a sign-in finds nothing.
    func session(_ credential: SessionTokenHash) async throws -> StoredSession?

    /// Signs the session `key` in as `user` and replaces its credential `old` with `new`, in one
    /// write; throws ``StoreError/sessionNotFound(_:)`` when the session does not exist or its
    /// credential is no longer `old` (another sign-in replaced it first).
    func signIn(_ key: SessionTokenHash, replacing old: SessionTokenHash, with new: SessionTokenHash, as user: StoredUser) async throws

    /// Deletes every session signed in as the user `id` (sign out everywhere); returns their keys.
    func deleteSessions(ofUser id: String) async throws -> [SessionTokenHash]

    /// Records a use of the session at `time` (never moving its last use backwards); throws
    /// ``StoreError/sessionNotFound(_:)`` if it does not exist.
    func touchSession(_ tokenHash: SessionTokenHash, at time: Date) async throws

    /// Every view-model record of the session, ordered by path; empty for an unknown session.
    func viewModels(of tokenHash: SessionTokenHash) async throws -> [ViewModelRecord]

    /// Applies a batch of writes all together or not at all, checking each write's expected
    /// version; also moves each written session's last use to the write's time when that is more
    /// than ``StoredSession/writeUseGranularity`` later.
    func commit(_ writes: [ViewModelWrite]) async throws

    /// The logged versions of a view model after `version`, or ``VersionHistory/unavailable`` when
    /// the log no longer reaches back to `version + 1`.
    func versions(of key: ViewModelKey, after version: Int) async throws -> VersionHistory

    /// Every version of a view model the log still holds, oldest first (an inspector's timeline).
    func loggedVersions(of key: ViewModelKey) async throws -> [LoggedVersion]

    /// Deletes a session and everything of it; returns whether it existed.
    @discardableResult
    func deleteSession(_ tokenHash: SessionTokenHash) async throws -> Bool

    /// Deletes every client session last used before `cutoff`; returns their hashes, least
    /// recently used first. Record spaces are never purged.
    func purgeSessions(idleSince cutoff: Date) async throws -> [SessionTokenHash]

    /// Keeps at most `maximum` client sessions: deletes the least recently used ones that are not
    /// in `sparing` (sessions in use in memory), which count toward the maximum but are never
    /// deleted; returns the deleted hashes, least recently used first. Record spaces neither
    /// count nor go.
    func evictSessions(beyond maximum: Int, sparing: Set<SessionTokenHash>) async throws -> [SessionTokenHash]

    /// The record of an idempotency key of `session` claimed at `notBefore` or later (older ones
    /// have expired), or nil.
    func idempotencyRecord(session: SessionTokenHash, key: String, notBefore: Date) async throws -> IdempotencyRecord?

    /// Stores the answer of the claim's request: on its claim when one of its writes recorded it,
    /// else with a new claim (a request that wrote nothing). Changes nothing when another
    /// execution holds the key.
    func recordAnswer(_ answer: StoredAnswer, for claim: IdempotencyClaim) async throws

    /// Forgets the idempotency keys claimed before `cutoff`; returns how many.
    @discardableResult
    func purgeIdempotencyKeys(claimedBefore cutoff: Date) async throws -> Int

    /// Marks every running deferred command interrupted (call it once at start-up, before serving);
    /// returns the view models concerned.
    func markRunningCommandsInterrupted() async throws -> [ViewModelKey]

    /// What the store can do beyond keeping sessions (a change feed, commit statistics).
    var capabilities: StoreCapabilities { get }

    /// Finishes the writes under way and releases the store (at shutdown); later writes fail.
    func close() async throws
}

extension SessionStateStore {
    /// Creates a client's session (see ``createSession(_:at:kind:)``).
    package func createSession(_ tokenHash: SessionTokenHash, at time: Date) async throws -> StoredSession {
        try await createSession(tokenHash, at: time, kind: .client)
    }
}
