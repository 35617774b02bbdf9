/// Collaborative texts: a record's text fields edited by operations that merge with concurrent
/// ones (server-ordered operational transformation, ShareDB's json0 text operations).
extension SharedCollection {
    /// The collaborative text `key` of the record `id` (a key of its
    /// ``SharedRecord/collaborativeTexts``), for an input declared with
    /// ``InputDeclaration/collaborative(_:maxLength:text:rule:)``.
    public func collaborativeText(id: String, key: String) -> CollaborativeText {
        CollaborativeText(
            identity: "\(name)/\(id)#\(key)",
            read: { [self] in text(id: id, key: key) },
            recentEdits: { [self] after, through in recentEdits(id: id, key: key, after: after, through: through) },
            catchUp: { [self] after in await catchUp(id: id, key: key, after: after) },
            apply: { [self] request, check in await edit(id: id, key: key, request, check: check) }
        )
    }

    /// The text and the record's version, reported to Observation as a read of the record; of a
    /// deleted record, the text it had when deleted (at the deletion's version).
    private func text(id: String, key: String) -> (text: String, revision: Int)? {
        registrar.access(self, keyPath: \.records)
        return contents.withLock { contents in
            if let record = contents.records[id] {
                return record.collaborativeTexts[key].map { ($0, record.version) }
            }
            guard let deletion = contents.deletions[id] else { return nil }
            return deletion.record.collaborativeTexts[key].map { ($0, deletion.version) }
        }
    }

    private func recentEdits(id: String, key: String, after: Int, through: Int) -> TextEdits? {
        guard let edits = contents.withLock({ $0.logs[id] })?.edits(of: key, after: after), through >= after else { return nil }
        return TextEdits(from: after, revision: through, edits: edits.edits.filter { $0.revision <= through })
    }

    /// The edits after `after` up to now: from memory, else from the store's log (which then
    /// replaces the log in memory, reaching further back).
    private func catchUp(id: String, key: String, after: Int) async -> TextEdits? {
        await queue.run { [self] in
            if let edits = contents.withLock({ $0.logs[id] })?.edits(of: key, after: after) { return edits }
            return await loadHistory(id, after: after)?.edits(of: key, after: after)
        }
    }

    /// In the commit queue: the record's log from the store's, reaching back to `after`, when
    /// the store still has it; it replaces the log in memory.
    private func loadHistory(_ id: String, after: Int) async -> RecordEditLog? {
        let (version, storage) = contents.withLock { ($0.versions[id], $0.storage) }
        guard let version, after < version, let storage,
            let logged = try? await storage.changes(of: id, after: after).map({ $0.filter { $0.version <= version } }),
            logged.last?.version == version
        else { return nil }
        var log = RecordEditLog(version: after)
        for entry in logged { log.record(version: entry.version, edits: RecordChange(data: entry.data, version: entry.version).edits) }
        contents.withLock { $0.logs[id] = log }
        return log
    }

    /// How long an edit that lost the race to another node's commit is transformed again and
    /// retried before it is answered 409. A count would not do: a node that has just committed
    /// writes its next edit without reloading, so while others type as fast as they can, a loser
    /// can lose many times in a row (30 in a row happened with three nodes on a loaded machine).
    /// Time bounds it the way a lock wait would.
    static var editPatience: Duration { .seconds(10) }

    /// Applies a client's edit of the text `key`: transformed against the edits since its base,
    /// checked, committed with its id. A repeated id answers the first answer again.
    private func edit(
        id: String, key: String, _ request: TextEditRequest, check: @escaping @Sendable (String) -> String?
    ) async -> Result<TextEdits, TextEditError> {
        // A base this node has not seen yet: another node committed it; load it first.
        if request.base > contents.withLock({ $0.versions[id] ?? 0 }) { await queue.run { [self] in await reload(id) } }
        let viewer = Viewer.current
        let result = await commit(id, patience: Self.editPatience) { [self] current, log -> CommitStep<Result<TextEdits, TextEditError>, Record> in
            guard let current, let text = current.collaborativeTexts[key] else { return .answer(.failure(.notFound)) }
            switch writeAccess.decision(for: viewer, current) {
            case .allowed: break
            case .signInRequired: return .answer(.failure(.signInRequired))
            case .forbidden: return .answer(.failure(.forbidden))
            }
            var log = log
            if log.edits(of: key, after: request.base) == nil, request.base < log.start,
                let loaded = await loadHistory(id, after: request.base)
            {
                log = loaded
            }
            if request.base > log.latest {
                return .answer(.failure(.invalid(reason: "base \(request.base) is ahead of revision \(log.latest)")))
            }
            guard let since = log.edits(of: key, after: request.base) else { return .answer(.failure(.tooOld(oldest: log.start))) }
            if let first = log.edit(of: key, id: request.id) {
                let upToFirst = since.edits.filter { $0.revision <= first.revision }
                return .answer(.success(TextEdits(from: request.base, revision: first.revision, edits: upToFirst)))
            }
            guard let rebased = try? log.rebase(request.operation, of: key, on: request.base) else {
                return .answer(.failure(.invalid(reason: "the ops do not apply to revision \(request.base)")))
            }
            let updated: String
            do throws(TextOperationError) {
                updated = try rebased.apply(to: text)
            } catch {
                return .answer(.failure(.invalid(reason: "the ops do not apply to revision \(request.base)")))
            }
            if let reason = check(updated) { return .answer(.failure(.refused(reason: reason))) }
            var next = current
            _ = next.setCollaborativeText(key, to: updated)
            let edit = TextEdit(id: request.id, revision: 0, operation: rebased)
            return .write(next, RecordChange(edits: [key: edit])) { _, version in
                var applied = edit
                applied.revision = version
                return .success(TextEdits(from: request.base, revision: version, edits: since.edits + [applied]))
            }
        }
        switch result {
        case .success(let answer): return answer
        case .failure(.notFound): return .failure(.notFound)
        case .failure(.stale), .failure(.conflict): return .failure(.conflict)
        case .failure(.unavailable(let reason)): return .failure(.unavailable(reason: reason))
        case .failure(.signInRequired): return .failure(.signInRequired)
        case .failure(.forbidden): return .failure(.forbidden)
        }
    }
}
