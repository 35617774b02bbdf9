import Foundation

/// Everything a ``MemoryStore`` holds, with the store's rules as plain mutating methods.
struct MemoryState {
    /// One view model: its record, its log (oldest first) and the version the log covers from.
    struct Entry {
        var record: ViewModelRecord
        var log: [LoggedVersion]
        /// The log holds every version above this one.
        var logFloor: Int
    }

    let logPolicy: VersionLogPolicy
    var sessions: [SessionTokenHash: StoredSession] = [:]
    /// Each session's key by its current credential.
    var credentials: [SessionTokenHash: SessionTokenHash] = [:]
    /// The record spaces (never purged nor trimmed).
    var recordSpaces: Set<SessionTokenHash> = []
    var viewModels: [SessionTokenHash: [String: Entry]] = [:]
    /// Each session's idempotency keys.
    var keys: [SessionTokenHash: [String: IdempotencyRecord]] = [:]

    init(logPolicy: VersionLogPolicy) {
        self.logPolicy = logPolicy
    }

    mutating func createSession(_ hash: SessionTokenHash, at time: Date, kind: SessionKind) throws(StoreError) -> StoredSession {
        guard sessions[hash] == nil, credentials[hash] == nil else { throw .sessionExists(hash) }
        let session = StoredSession(tokenHash: hash, createdAt: time, lastUsedAt: time)
        sessions[hash] = session
        credentials[hash] = hash
        if kind == .records { recordSpaces.insert(hash) }
        return session
    }

    /// The session whose current credential is `credential`.
    func session(credential: SessionTokenHash) -> StoredSession? {
        credentials[credential].flatMap { sessions[$0] }
    }

    mutating func signIn(_ key: SessionTokenHash, replacing old: SessionTokenHash, with new: SessionTokenHash, as user: StoredUser) throws(StoreError)
    {
        guard sessions[key] != nil, credentials[old] == key else { throw .sessionNotFound(key) }
        guard credentials[new] == nil else { throw .sessionExists(new) }
        credentials[old] = nil
        credentials[new] = key
        sessions[key]?.user = user
    }

    /// The keys of the sessions signed in as the user `id`.
    func sessions(ofUser id: String) -> [SessionTokenHash] {
        sessions.values.filter { $0.user?.id == id }.map(\.tokenHash).sorted { $0.precedes($1) }
    }

    mutating func touchSession(_ hash: SessionTokenHash, at time: Date) throws(StoreError) {
        guard let session = sessions[hash] else { throw .sessionNotFound(hash) }
        sessions[hash]?.lastUsedAt = max(session.lastUsedAt, time)
    }

    /// Checks every write against the stored versions (and the batch's earlier writes) first, then
    /// applies them all, so a refused batch changes nothing.
    mutating func commit(_ writes: [ViewModelWrite]) throws(StoreError) {
        var versions: [ViewModelKey: Int] = [:]
        for write in writes {
            let key = write.key
            guard sessions[key.session] != nil else { throw .sessionNotFound(key.session) }
            let stored = versions[key] ?? viewModels[key.session]?[key.path]?.record.version
            guard write.expected == stored else { throw .conflict(key, expected: write.expected, stored: stored) }
            guard write.version > (write.expected ?? Int.min) else {
                throw .versionNotIncreasing(key, expected: write.expected, version: write.version)
            }
            versions[key] = write.version
        }
        var claimed: [SessionTokenHash: [String: IdempotencyRecord]] = [:]
        for claim in writes.compactMap(\.claim) {
            guard sessions[claim.session] != nil else { throw .sessionNotFound(claim.session) }
            let held = claimed[claim.session]?[claim.key] ?? keys[claim.session]?[claim.key]
            if let held, held.claimedAt >= claim.expiredBefore {
                guard held.attempt == claim.attempt else { throw .keyClaimed(key: claim.key) }
                continue
            }
            claimed[claim.session, default: [:]][claim.key] = IdempotencyRecord(
                fingerprint: claim.fingerprint, attempt: claim.attempt, claimedAt: claim.at, answer: nil
            )
        }
        for write in writes {
            apply(write)
        }
        for (session, records) in claimed { keys[session, default: [:]].merge(records) { $1 } }
    }

    /// Stores a request's answer on its claim, or with a new claim; nothing when another holds it.
    mutating func recordAnswer(_ answer: StoredAnswer, for claim: IdempotencyClaim) throws(StoreError) {
        guard sessions[claim.session] != nil else { throw .sessionNotFound(claim.session) }
        var record =
            keys[claim.session]?[claim.key]
            ?? IdempotencyRecord(fingerprint: claim.fingerprint, attempt: claim.attempt, claimedAt: claim.at, answer: nil)
        guard record.attempt == claim.attempt else { return }
        record.answer = answer
        keys[claim.session, default: [:]][claim.key] = record
    }

    /// Forgets the keys claimed before `cutoff`; how many.
    mutating func purgeKeys(claimedBefore cutoff: Date) -> Int {
        var count = 0
        for (session, records) in keys {
            let kept = records.filter { $0.value.claimedAt >= cutoff }
            count += records.count - kept.count
            keys[session] = kept.isEmpty ? nil : kept
        }
        return count
    }

    private mutating func apply(_ write: ViewModelWrite) {
        let key = write.key
        let command = write.runningCommand.map(CommandState.running)
        let record = ViewModelRecord(key: key, version: write.version, state: write.state, command: command, shape: write.shape)
        // Taken out while it changes, so its log is appended to in place rather than copied.
        var entry =
            viewModels[key.session]?.removeValue(forKey: key.path)
            ?? Entry(record: record, log: [], logFloor: write.version - 1)
        entry.record = record
        if let snapshot = write.snapshot {
            entry.log.append(LoggedVersion(version: write.version, snapshot: snapshot, loggedAt: write.at))
        } else {
            entry.log = []
            entry.logFloor = write.version
        }
        // One expression: the reversed view holds the log, and must be gone before the log changes
        // (or the change would copy it).
        let droppedByAge = logPolicy.highestVersionDroppedByAge(
            newestFirst: entry.log.reversed().lazy.map { (version: $0.version, loggedAt: $0.loggedAt) }, now: write.at
        )
        let dropped = max(logPolicy.highestVersionDroppedByCount(newest: write.version), droppedByAge ?? .min)
        if dropped > entry.logFloor {
            // The log is oldest first, so what goes is a prefix: moved down in one block.
            entry.log.removeSubrange(..<(entry.log.firstIndex { $0.version > dropped } ?? entry.log.endIndex))
            entry.logFloor = dropped
        }
        viewModels[key.session, default: [:]][key.path] = entry
        if let lastUsedAt = sessions[key.session]?.lastUsedAt,
            write.at.timeIntervalSince(lastUsedAt) > StoredSession.writeUseGranularity
        {
            sessions[key.session]?.lastUsedAt = write.at
        }
    }

    func versions(of key: ViewModelKey, after version: Int) -> VersionHistory {
        guard let entry = viewModels[key.session]?[key.path],
            version >= entry.logFloor, version <= entry.record.version
        else { return .unavailable }
        return .versions(entry.log.filter { $0.version > version })
    }

    mutating func deleteSession(_ hash: SessionTokenHash) -> Bool {
        viewModels[hash] = nil
        keys[hash] = nil
        recordSpaces.remove(hash)
        credentials = credentials.filter { $0.value != hash }
        return sessions.removeValue(forKey: hash) != nil
    }

    /// Client sessions (not record spaces), least recently used first.
    var sessionsByUse: [StoredSession] {
        sessions.values.filter { !recordSpaces.contains($0.tokenHash) }.sorted { $0.isLessRecentlyUsed(than: $1) }
    }

    mutating func delete(_ doomed: [StoredSession]) -> [SessionTokenHash] {
        doomed.map(\.tokenHash).filter { deleteSession($0) }
    }

    mutating func markRunningCommandsInterrupted() -> [ViewModelKey] {
        var marked: [ViewModelKey] = []
        for (hash, entries) in viewModels {
            for (path, entry) in entries {
                guard case .running(let command) = entry.record.command else { continue }
                viewModels[hash]?[path]?.record.command = .interrupted(command)
                marked.append(entry.record.key)
            }
        }
        return marked.sorted { $0.precedes($1) }
    }
}
