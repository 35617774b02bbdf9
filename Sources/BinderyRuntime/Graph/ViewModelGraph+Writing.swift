/// Writing inputs, and following what other nodes wrote.
extension ViewModelGraph {
    /// Writes inputs from a JSON merge patch; all or nothing.
    ///
    /// With `ifVersion`, the write happens only while the current version is one of those
    /// (a conditional request's `If-Match`); otherwise it is refused and nothing changes.
    package func write(_ path: String, patch: JSONValue, ifVersion: Set<Int>? = nil) async throws(ViewModelError) -> EncodedSnapshot {
        // Another node may commit first: reload its state, then a plain write is applied again
        // on top of it, and a conditional one finds its version stale (412).
        for _ in 0..<3 {
            let host = try await preparedHost(at: path)
            guard let apply = try await validate(patch, on: host, ifVersion: ifVersion) else { continue }
            apply()
            let before = host.version
            let commit = flush()
            // This write's own version (later writes may be committed with it); the current one
            // when the write changed nothing.
            let written = host.version > before ? host.encoded : nil
            do {
                try await commitChanges(commit)
                return written ?? host.current
            } catch .versionConflict {
                await reload(host)
            }
        }
        throw .versionConflict
    }

    /// Checks a write against what it would replace and the view model's rules, and commits its
    /// written-through inputs to their shared models: returns what applies the rest, or nil when
    /// the view model is reloading another node's version meanwhile (the caller tries again).
    private func validate(
        _ patch: JSONValue, on host: ViewModelHost, ifVersion: Set<Int>?
    ) async throws(ViewModelError) -> (() -> Void)? {
        // A conditional write waits for renders of other requests still on their way to the
        // store, so If-Match is checked against what the write would replace. A plain write does
        // not: it applies on top of them and joins the commit batch that collects them (refused
        // with them if they are), so a burst of writes to one session shares a store transaction
        // instead of waiting one commit each; what changed before it (a first render) still gets
        // its own version first. Both wait while the view model reloads what another node
        // committed.
        if ifVersion != nil || commits.isReloading(host) {
            flushUnclaimed()
            _ = await commits.chain?.value
            for _ in 0..<5 where host.version != host.current.version { await settle() }
        } else {
            flushUnclaimed()
        }
        // A version newer than ours: another node wrote it and this copy has not heard yet.
        if let ifVersion, let newest = ifVersion.max(), newest > host.current.version {
            await reload(host)
        }
        var conditional = ifVersion != nil
        if let ifVersion, !ifVersion.contains(host.current.version) {
            // An older version: merged when none of the inputs it writes changed since.
            try await checkUnchanged(host, patch: patch, since: ifVersion)
            conditional = false
        }
        let (apply, shared) = try asViewer { () throws(ViewModelError) in try host.viewModel.prepareWrite(patch) }
        // Written-through inputs are committed to their shared model first.
        do {
            try await asViewer { () async throws(ViewModelError) in try await host.viewModel.commitShared(shared, conditional: conditional) }
        } catch .versionMismatch {
            await settle()
            throw .versionMismatch(current: host.current.version)
        }
        // While a bound model's commit waited, this view model's own commit may have lost a race
        // and be reloading: prepare again on what it reloads (the shared model already holds the
        // write; writing it again changes nothing). Conditional writes to a bound view model are
        // checked by its model (its version moves with the model's changes, this write's
        // included). The commit runs on this actor (`nonisolated(nonsending)`): for a view model
        // bound to nothing, nothing runs between the check above and the caller's apply.
        return commits.isReloading(host) ? nil : apply
    }

    /// Refuses a conditional write whose version is older than `host`'s unless none of the inputs
    /// it writes changed since: ``ViewModelError/fieldsChanged(current:fields:)`` names those that
    /// did, ``ViewModelError/versionMismatch(current:)`` says the version is older than the
    /// history kept (the store's version log).
    private func checkUnchanged(_ host: ViewModelHost, patch: JSONValue, since versions: Set<Int>) async throws(ViewModelError) {
        guard let base = versions.max(), base < host.current.version, let persistence,
            let logged = try? await persistence.versions(of: host.path, after: base - 1),
            let then = logged.first(where: { $0.version == base })
        else { throw .versionMismatch(current: host.current.version) }
        // What is current after the wait: a write that landed meanwhile counts too.
        let before = Self.inputs(of: then), now = Self.inputs(of: host.current)
        let changed = (patch.objectValue?.keys).map { $0.filter { before[$0] != now[$0] }.sorted() } ?? []
        guard changed.isEmpty else { throw .fieldsChanged(current: host.current.version, fields: changed) }
    }

    /// The inputs a snapshot shows, by name.
    private static func inputs(of snapshot: EncodedSnapshot) -> [String: JSONValue] {
        (try? JSONValue(parsing: snapshot.bytes))?.objectValue?["inputs"]?.objectValue ?? [:]
    }

    /// Follows a newer version of `path` another node committed: a view model someone here
    /// follows (a stream, a long-poll, a running command) reloads it now and its watchers get it
    /// pushed; any other is only marked behind and reloads on its next use (a read, a write, a
    /// watch), so a write on one node costs the others a reload only where someone looks.
    @discardableResult
    package func refresh(_ path: String, toVersion version: Int) async -> RefreshOutcome {
        guard let host = hosts[path], host.newestKnownVersion < version else { return .current }
        return await catchUp(host) ? .reloaded : .markedBehind
    }

    /// What a notification of another node's commit did here.
    package enum RefreshOutcome: Sendable {
        /// Nothing: the view model is not held here, or already shows that version (this
        /// node's own commit).
        case current
        /// Reloaded now: someone here follows it.
        case reloaded
        /// Marked behind, reloaded on next use: nobody here follows it.
        case markedBehind
    }

    /// Catches up with the store on every view model this graph holds (after missed
    /// notifications): followed ones now, others on next use.
    package func refreshAll() async {
        for host in hosts.values { await catchUp(host) }
    }

    /// Reloads `host` now when someone follows it (true), else marks it behind (false).
    @discardableResult
    private func catchUp(_ host: ViewModelHost) async -> Bool {
        guard host.isFollowed else {
            host.isBehindStore = true
            board.invalidate(host.path)
            return false
        }
        host.isBehindStore = false
        await reload(host)
        return true
    }
}
