import Foundation
import Synchronization

/// A ``SessionStateStore`` in memory (`--store memory`): the same rules as ``SQLiteStore``,
/// nothing on disk, everything gone with the process.
package final class MemoryStore: SessionStateStore {
    private let state: Mutex<MemoryState>

    /// An empty store keeping version logs as `logPolicy` says.
    package init(logPolicy: VersionLogPolicy = VersionLogPolicy()) {
        state = Mutex(MemoryState(logPolicy: logPolicy))
    }

    /// Creates a session.
    package func createSession(_ tokenHash: SessionTokenHash, at time: Date, kind: SessionKind) async throws -> StoredSession {
        try state.withLock { state throws(StoreError) in try state.createSession(tokenHash, at: time, kind: kind) }
    }

    /// The session whose current credential is `credential`, or `nil`.
    package func session(_ credential: SessionTokenHash) async throws -> StoredSession? {
        state.withLock { $0.session(credential: credential) }
    }

    /// Signs the session in and replaces its credential.
    package func signIn(
        _ key: SessionTokenHash, replacing old: SessionTokenHash, with new: SessionTokenHash, as user: StoredUser
    ) async throws {
        try state.withLock { state throws(StoreError) in try state.signIn(key, replacing: old, with: new, as: user) }
    }

    /// Deletes every session signed in as the user `id`.
    package func deleteSessions(ofUser id: String) async throws -> [SessionTokenHash] {
        state.withLock { state in state.sessions(ofUser: id).filter { state.deleteSession($0) } }
    }

    /// Records a use of the session.
    package func touchSession(_ tokenHash: SessionTokenHash, at time: Date) async throws {
        try state.withLock { state throws(StoreError) in try state.touchSession(tokenHash, at: time) }
    }

    /// Every view-model record of the session, ordered by path.
    package func viewModels(of tokenHash: SessionTokenHash) async throws -> [ViewModelRecord] {
        state.withLock { state in
            (state.viewModels[tokenHash] ?? [:]).values.map(\.record).sorted { $0.key.path < $1.key.path }
        }
    }

    /// Applies a batch of writes all together or not at all.
    package func commit(_ writes: [ViewModelWrite]) async throws {
        try state.withLock { state throws(StoreError) in try state.commit(writes) }
    }

    /// The logged versions of a view model after `version`.
    package func versions(of key: ViewModelKey, after version: Int) async throws -> VersionHistory {
        state.withLock { $0.versions(of: key, after: version) }
    }

    /// Every version of a view model the log still holds, oldest first.
    package func loggedVersions(of key: ViewModelKey) async throws -> [LoggedVersion] {
        state.withLock { $0.viewModels[key.session]?[key.path]?.log ?? [] }
    }

    /// Deletes a session and everything of it.
    @discardableResult
    package func deleteSession(_ tokenHash: SessionTokenHash) async throws -> Bool {
        state.withLock { $0.deleteSession(tokenHash) }
    }

    /// Deletes every session last used before `cutoff`.
    package func purgeSessions(idleSince cutoff: Date) async throws -> [SessionTokenHash] {
        state.withLock { state in
            state.delete(state.sessionsByUse.filter { $0.lastUsedAt < cutoff })
        }
    }

    /// Keeps at most `maximum` sessions, deleting the least recently used not in `sparing`.
    package func evictSessions(beyond maximum: Int, sparing: Set<SessionTokenHash>) async throws -> [SessionTokenHash] {
        state.withLock { state in
            let byUse = state.sessionsByUse
            let excess = max(0, byUse.count - max(0, maximum))
            return state.delete(Array(byUse.filter { !sparing.contains($0.tokenHash) }.prefix(excess)))
        }
    }

    /// The record of an idempotency key claimed at `notBefore` or later.
    package func idempotencyRecord(session: SessionTokenHash, key: String, notBefore: Date) async throws -> IdempotencyRecord? {
        state.withLock { $0.keys[session]?[key] }.flatMap { $0.claimedAt >= notBefore ? $0 : nil }
    }

    /// Stores the answer on the claim (made now if no write made it).
    package func recordAnswer(_ answer: StoredAnswer, for claim: IdempotencyClaim) async throws {
        try state.withLock { state throws(StoreError) in try state.recordAnswer(answer, for: claim) }
    }

    /// Forgets the keys claimed before `cutoff`.
    @discardableResult
    package func purgeIdempotencyKeys(claimedBefore cutoff: Date) async throws -> Int {
        state.withLock { $0.purgeKeys(claimedBefore: cutoff) }
    }

    /// Marks every running deferred command interrupted.
    package func markRunningCommandsInterrupted() async throws -> [ViewModelKey] {
        state.withLock { $0.markRunningCommandsInterrupted() }
    }

    /// Does nothing: memory has nothing to flush, and the state ends with the process.
    package func close() async throws {}
}
