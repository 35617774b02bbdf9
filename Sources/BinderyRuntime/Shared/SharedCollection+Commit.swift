import Foundation

/// What a commit does with a record as it is now (see ``SharedCollection``'s `commit`).
enum CommitStep<Answer: Sendable, Record: SharedRecord>: Sendable {
    /// Commit nothing: answer this.
    case answer(Answer)
    /// Commit the record (nil deletes it) with `change` (explicit text edits, who), then answer
    /// what `answer` makes of the committed record and its version.
    case write(Record?, RecordChange, answer: @Sendable (_ committed: Record?, _ version: Int) -> Answer)
}

/// Committing: durable first, then visible, with each version's change logged beside it.
extension SharedCollection {
    /// In the commit queue: plans a step from the record as it is (nil when there is none) and
    /// its edit log, commits it to the storage, then shows it. A write (`patience` > 0: every
    /// change, text edits included) that loses a race with another node pauses briefly, reloads
    /// the record and plans again, for as long as its patience lasts.
    ///
    /// The change stored with the version lists an edit of every collaborative text the write
    /// changes: the plan's own edits (operations with their client ids), and for the others the
    /// difference between old and new text, so a whole-value write is ordered like an edit.
    func commit<Answer: Sendable>(
        _ id: String, patience: Duration = .zero,
        plan: @escaping @Sendable (Record?, RecordEditLog) async throws(SharedRecordError) -> CommitStep<Answer, Record>
    ) async -> Result<Answer, SharedRecordError> {
        await queue.run { [self] () async -> Result<Answer, SharedRecordError> in
            let deadline = ContinuousClock.now + patience
            var attempt = 0
            while true {
                let (current, stored, log, storage) = contents.withLock {
                    ($0.records[id], $0.versions[id], $0.logs[id], $0.storage)
                }
                guard let storage else { return .failure(.unavailable(reason: "the collection \(name) is not open")) }
                let step: CommitStep<Answer, Record>
                do throws(SharedRecordError) {
                    step = try await plan(current, log ?? RecordEditLog(version: stored ?? 0))
                } catch {
                    return .failure(error)
                }
                guard case .write(let planned, var change, let answer) = step else {
                    if case .answer(let answer) = step { return .success(answer) }
                    return .failure(.conflict(id: id))
                }
                if let planned, let current, planned == current { return .success(answer(current, current.version)) }
                guard planned != nil || stored != nil else { return .success(answer(nil, 0)) }
                let version = (stored ?? 0) + 1
                var next = planned
                next?.version = version
                change.edits = Self.textEdits(from: current, to: next, explicit: change.edits, version: version)
                if next == nil, let current { change.deleted = try? JSONValue(parsing: Array(Self.encode(current))) }
                let state: Data?
                do throws(SharedRecordError) {
                    state = try next.map { record throws(SharedRecordError) in try Self.encode(record) }
                } catch {
                    return .failure(error)
                }
                do throws(SharedStorageError) {
                    let record = StoredRecord(id: id, version: version, state: state, change: change.data, shape: Self.recordShape.stored)
                    try await storage.write(record, replacing: stored)
                } catch {
                    switch error {
                    case .conflict:
                        // Another node committed first: show its version. A retry waits a short
                        // random pause first (growing with the attempts, up to 8 ms), so nodes do
                        // not keep losing to each other in lockstep.
                        attempt += 1
                        let retrying = ContinuousClock.now < deadline
                        if retrying {
                            try? await Task.sleep(for: .microseconds(Int.random(in: 200...(1_000 << min(attempt, 3)))))
                        }
                        await reload(id)
                        if retrying { continue }
                        return .failure(.conflict(id: id))
                    case .unavailable(let reason):
                        return .failure(.unavailable(reason: reason))
                    }
                }
                show(id: id, version: version, value: next, change: change)
                return .success(answer(next, version))
            }
        }
    }

    /// The edits a change from `old` to `new` makes to the collaborative texts both have:
    /// `explicit` ones as given, a difference for the others.
    static func textEdits(from old: Record?, to new: Record?, explicit: [String: TextEdit], version: Int) -> [String: TextEdit] {
        var edits: [String: TextEdit] = [:]
        guard let old, let new else { return edits }
        let before = old.collaborativeTexts
        for (key, text) in new.collaborativeTexts {
            if var edit = explicit[key] {
                edit.revision = version
                edits[key] = edit
            } else if let previous = before[key], previous != text {
                edits[key] = TextEdit(id: nil, revision: version, operation: .difference(from: previous, to: text))
            }
        }
        return edits
    }

    /// Shows a version this node committed, then notifies observers.
    private func show(id: String, version: Int, value: Record?, change: RecordChange) {
        contents.withLock { contents in
            Self.record(change, version: version, id: id, previous: contents.records[id], into: &contents)
            Self.install(id: id, version: version, value: value, into: &contents)
        }
        registrar.withMutation(of: self, keyPath: \.records) {}
    }

    /// Shows stored records newer than what the collection holds, with the changes logged since
    /// the version it held (reading them from `storage`), then notifies observers (after the
    /// change, so a session that renders at once already reads the new value).
    func apply(_ stored: [StoredRecord], from storage: any SharedRecordStorage) async {
        var changes: [String: [LoggedChange]?] = [:]
        for record in stored {
            guard let known = contents.withLock({ $0.versions[record.id] }), record.version > known else { continue }
            changes[record.id] = try? await storage.changes(of: record.id, after: known)
        }
        let changed = contents.withLock { contents in
            var changed = false
            for record in stored where record.version > (contents.versions[record.id] ?? 0) {
                // The log may already hold versions newer than the record read before it (other
                // nodes keep committing): only those up to the record's version are its history.
                let logged = (changes[record.id] ?? nil)?.filter { $0.version <= record.version }
                let previous = contents.records[record.id]
                if let logged, logged.last?.version == record.version {
                    for entry in logged {
                        Self.record(
                            RecordChange(data: entry.data, version: entry.version), version: entry.version, id: record.id,
                            previous: previous, into: &contents)
                    }
                } else {
                    contents.logs[record.id] = RecordEditLog(version: record.version)
                }
                Self.install(record, change: nil, into: &contents)
                changed = true
            }
            return changed
        }
        if changed { registrar.withMutation(of: self, keyPath: \.records) {} }
    }

    /// Logs what `version` of the record `id` changed; a deletion is remembered with the record
    /// as it was (`previous`, or the change's copy of it).
    private static func record(
        _ change: RecordChange, version: Int, id: String, previous: Record?, into contents: inout Contents
    ) {
        var log = contents.logs[id] ?? RecordEditLog(version: version - 1)
        log.record(version: version, edits: change.edits)
        contents.logs[id] = log
        guard let deleted = change.deleted else { return }
        let decoded = try? JSONDecoder().decode(Record.self, from: Data(JSONWriter.bytes(of: deleted)))
        if let record = decoded ?? previous {
            contents.deletions[id] = SharedDeletion(record: record, by: change.by, version: version)
        }
    }

    /// Installs a stored record, read through the record type's migrations; one this build cannot
    /// read (newer, or unreadable) is kept out of sight and its id reserved: never written over.
    static func install(_ record: StoredRecord, change: RecordChange?, into contents: inout Contents) {
        let value = record.state.flatMap { read($0, storedAs: record.shape) }
        if contents.logs[record.id] == nil { contents.logs[record.id] = RecordEditLog(version: record.version) }
        install(id: record.id, version: record.version, value: value, into: &contents)
    }

    private static func install(id: String, version: Int, value: Record?, into contents: inout Contents) {
        contents.versions[id] = version
        if var record = value {
            record.id = id
            record.version = version
            contents.records[id] = record
            contents.deletions[id] = nil
        } else {
            contents.records[id] = nil
        }
    }

    /// In the commit queue: the record `id` as its deletion left it, from memory or, after a
    /// restart, from the store's log of its last version.
    func deletedRecord(_ id: String) async -> Record? {
        let (known, version, storage) = contents.withLock { ($0.deletions[id], $0.versions[id], $0.storage) }
        if let known { return known.record }
        guard let version, let storage, let logged = try? await storage.changes(of: id, after: version - 1),
            let last = logged.last, last.version == version
        else { return nil }
        let change = RecordChange(data: last.data, version: version)
        guard let deleted = change.deleted else { return nil }
        return try? JSONDecoder().decode(Record.self, from: Data(JSONWriter.bytes(of: deleted)))
    }

    static func load(_ storage: any SharedRecordStorage) async throws(SharedRecordError) -> [StoredRecord] {
        do throws(SharedStorageError) {
            return try await storage.loadAll()
        } catch {
            switch error {
            case .conflict(let id): throw .conflict(id: id)
            case .unavailable(let reason): throw .unavailable(reason: reason)
            }
        }
    }

    static func encode(_ record: Record) throws(SharedRecordError) -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        do { return try encoder.encode(record) } catch { throw .unavailable(reason: "cannot encode \(record.id)") }
    }
}
