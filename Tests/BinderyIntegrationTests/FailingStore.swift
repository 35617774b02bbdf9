import BinderyStore
import Foundation
import Synchronization

/// A memory store whose commits can be made to fail, as a full disk would.
final class FailingStore: SessionStateStore {
    private let base = MemoryStore()
    private let failing = Mutex(false)
    private let unreachable = Mutex(false)
    private let losingAnswers = Mutex(false)

    /// Makes every later answer of an idempotent request fail to be stored, as a node stopping
    /// between a request's write and its answer would.
    func loseAnswers(_ lose: Bool) { losingAnswers.withLock { $0 = lose } }

    /// Makes every later commit fail (or succeed again).
    func failCommits(_ fail: Bool) { failing.withLock { $0 = fail } }

    /// Makes every later read fail too, as an unreachable database would.
    func failReads(_ fail: Bool) { unreachable.withLock { $0 = fail } }

    func commit(_ writes: [ViewModelWrite]) async throws {
        if failing.withLock({ $0 }) { throw StoreError.unavailable(reason: "disk full") }
        try await base.commit(writes)
    }

    func createSession(_ tokenHash: SessionTokenHash, at time: Date, kind: SessionKind) async throws -> StoredSession {
        try await base.createSession(tokenHash, at: time, kind: kind)
    }
    func signIn(
        _ key: SessionTokenHash, replacing old: SessionTokenHash, with new: SessionTokenHash, as user: StoredUser
    ) async throws {
        if failing.withLock({ $0 }) { throw StoreError.unavailable(reason: "disk full") }
        try await base.signIn(key, replacing: old, with: new, as: user)
    }
    func deleteSessions(ofUser id: String) async throws -> [SessionTokenHash] { try await base.deleteSessions(ofUser: id) }
    func session(_ tokenHash: SessionTokenHash) async throws -> StoredSession? {
        if unreachable.withLock({ $0 }) { throw StoreError.unavailable(reason: "connection refused") }
        return try await base.session(tokenHash)
    }
    func touchSession(_ tokenHash: SessionTokenHash, at time: Date) async throws { try await base.touchSession(tokenHash, at: time) }
    func viewModels(of tokenHash: SessionTokenHash) async throws -> [ViewModelRecord] { try await base.viewModels(of: tokenHash) }
    func loggedVersions(of key: ViewModelKey) async throws -> [LoggedVersion] { try await base.loggedVersions(of: key) }
    func versions(of key: ViewModelKey, after version: Int) async throws -> VersionHistory {
        try await base.versions(of: key, after: version)
    }
    func deleteSession(_ tokenHash: SessionTokenHash) async throws -> Bool { try await base.deleteSession(tokenHash) }
    func purgeSessions(idleSince cutoff: Date) async throws -> [SessionTokenHash] { try await base.purgeSessions(idleSince: cutoff) }
    func evictSessions(beyond maximum: Int, sparing: Set<SessionTokenHash>) async throws -> [SessionTokenHash] {
        try await base.evictSessions(beyond: maximum, sparing: sparing)
    }
    func idempotencyRecord(session: SessionTokenHash, key: String, notBefore: Date) async throws -> IdempotencyRecord? {
        try await base.idempotencyRecord(session: session, key: key, notBefore: notBefore)
    }
    func recordAnswer(_ answer: StoredAnswer, for claim: IdempotencyClaim) async throws {
        if failing.withLock({ $0 }) || losingAnswers.withLock({ $0 }) { throw StoreError.unavailable(reason: "disk full") }
        try await base.recordAnswer(answer, for: claim)
    }
    func purgeIdempotencyKeys(claimedBefore cutoff: Date) async throws -> Int { try await base.purgeIdempotencyKeys(claimedBefore: cutoff) }
    func markRunningCommandsInterrupted() async throws -> [ViewModelKey] { try await base.markRunningCommandsInterrupted() }
    func close() async throws { try await base.close() }
    var capabilities: StoreCapabilities { StoreCapabilities() }
}
