import Foundation

/// What the graph does around its commit pipeline (``CommitPipeline``): waiting for commits,
/// publishing a committed version to readers and watchers, and reloading what another node
/// committed.
extension ViewModelGraph {
    /// A version rendered by a flush and waiting for its commit.
    struct RenderedVersion {
        let host: ViewModelHost
        let snapshot: EncodedSnapshot
        let body: JSONValue
        /// Whether it shows what the store already holds (a restored or reloaded view model):
        /// published without a commit.
        let isStored: Bool
        /// The collaborative texts it shows.
        let texts: [ShownTexts.Shown]
    }

    /// Flushes and waits for everything rendered so far to be committed.
    func settle() async {
        flush()
        _ = await commits.chain?.value
    }

    /// Flushes what changed before a request applies its own change (other sessions' shared
    /// records, renders pending): those versions are not the request's doing and claim no
    /// idempotency key, so a key is taken only with what the request itself wrote.
    @discardableResult
    func flushUnclaimed() -> CommitPipeline.Commit? {
        commits.claimsWithheld = true
        defer { commits.claimsWithheld = false }
        return flush()
    }

    /// Flushes and waits for the commit of what changed; throws when it failed (and was rolled
    /// back): ``ViewModelError/versionConflict`` when another node committed first.
    ///
    /// `flushed` is the commit of a flush the caller just ran (nothing is flushed again then).
    func commitChanges(_ flushed: CommitPipeline.Commit?? = nil) async throws(ViewModelError) {
        // A closed graph (session ended, server stopping) commits nothing: never answer 200.
        guard !isClosed else { throw .sessionClosed }
        // Nothing new rendered: what the caller sees still depends on the commit in flight.
        guard let commit = (flushed ?? flush()) ?? commits.chain else { return }
        if let refusal = await commit.value { throw refusal }
    }

    /// Loads the newest committed state of a view model (another node wrote it) and shows it at
    /// the version the store holds, without committing anything.
    ///
    /// Watchers first get the versions in between from the store's log, so none misses one.
    func reload(_ host: ViewModelHost) async {
        let from = host.current.version
        var newest: RestoredViewModel?
        var missed: [EncodedSnapshot] = []
        if let persistence, let record = try? await persistence.latest(of: host.path),
            record.version > host.newestKnownVersion
        {
            newest = record
            if !host.watchers.isEmpty, !host.hasSensitiveInputs, let logged = try? await persistence.versions(of: host.path, after: from) {
                missed = logged
            }
        }
        // Renders of a view model whose commit was refused wait for this.
        commits.reloaded(host)
        // Another reload may have got here first while this one waited, or this host may have
        // rendered and queued versions of its own since: a record that is not newer than those
        // is this node's own commit, or will refuse the in-flight one (whose conflict reloads).
        guard let stored = newest, stored.version > host.newestKnownVersion else { return }
        let record: RestoredViewModel
        do throws(PersistedStateError) {
            record = try stored.read(by: host.viewModel.persistedShape)
        } catch {
            // Written by a newer declaration (another node runs newer code) or unreadable: this
            // node neither shows it nor writes over it; requests for it are refused from now on.
            unreadable[host.path] = error
            endFollowers(of: host)
            return
        }
        for snapshot in missed where snapshot.version > host.current.version && snapshot.version < record.version {
            host.watchers.values.forEach { $0.send(snapshot) }
        }
        host.viewModel.restorePersistedState(record.state)
        host.viewModel.showStoredCommand(running: record.runningCommand)
        host.continueFrom(storedVersion: record.version, upgraded: record.isUpgraded)
        host.committedState = record.state
        host.committedCommand = record.runningCommand
        host.queuedCommand = record.runningCommand
        // What the reload renders is another node's doing, never the request's that ran into it
        // (a read that found the view model behind, a write that lost a race): it claims no
        // idempotency key. Claimed, a key could be taken by a version without the request's work,
        // and a retry would be answered as if it had been done.
        flushUnclaimed()
        if let name = record.interruptedCommand {
            interrupt(name, of: host)
            flushUnclaimed()
        }
    }

    /// Makes a committed version visible: the board, the watchers, the long-polls.
    func publish(_ version: RenderedVersion) {
        let host = version.host
        let previous =
            host.wantsPatches
            ? host.committed.flatMap { committed in host.committedMembers.map { (version: committed.version, body: $0) } }
            : nil
        // A version is pushed once: never again, never after a newer one.
        guard host.markCommitted(version.snapshot) else { return }
        if host.isServedFromBoard { board.publish(version.snapshot) }
        var pushed = host.wantsPatches ? Self.withPatch(version, from: previous) : version.snapshot
        if !host.watchers.isEmpty, let edits = ShownTexts.editsEvent(from: host.publishedTexts, to: version.texts) {
            pushed.textEdits = JSONWriter.bytes(of: edits)
        }
        host.publishedTexts = version.texts
        // A rule that depends on the view model is asked again before anything is pushed.
        guard !endRefusedFollowers(host) else { return }
        for watcher in host.watchers.values where watcher.admitted() { watcher.send(pushed) }
        host.waiters.values.forEach { $0.resume(returning: version.snapshot) }
        host.waiters.removeAll()
    }

    /// The snapshot with a JSON Patch from the previous committed version, encoded once for every
    /// watcher that takes patches; the snapshot alone when there is no previous version.
    private static func withPatch(_ version: RenderedVersion, from previous: (version: Int, body: JSONValue)?) -> EncodedSnapshot {
        guard let previous else { return version.snapshot }
        let snapshot = version.snapshot
        let operations = JSONPatch.between(base: previous.version, previous.body, version: snapshot.version, version.body)
        let patch = JSONWriter.bytes(of: .array(operations))
        return EncodedSnapshot(
            path: snapshot.path, version: snapshot.version, bytes: snapshot.bytes, patch: patch,
            patchBase: previous.version
        )
    }

    /// Continues a view model from what a previous process committed: same version, same
    /// state; a command that was running then is shown as interrupted in a new version.
    func continueRestored(_ host: ViewModelHost, from record: RestoredViewModel) {
        host.viewModel.showStoredCommand(running: record.runningCommand)
        host.continueFrom(storedVersion: record.version, upgraded: record.isUpgraded)
        host.committedState = record.state
        host.committedCommand = record.runningCommand
        host.queuedCommand = record.runningCommand
        guard let name = record.interruptedCommand else { return }
        flush()
        interrupt(name, of: host)
    }

    /// Shows the command `name` as interrupted; the next flush commits that as a new version.
    func interrupt(_ name: String, of host: ViewModelHost) {
        host.viewModel.command(named: name)?.markInterrupted()
    }

    /// The committed versions a watcher resuming after `version` missed, from the store's log;
    /// none for a view model with sensitive inputs (the log masks them: the watcher gets the
    /// current snapshot instead).
    func loggedVersions(of host: ViewModelHost, after version: Int?) async -> [EncodedSnapshot] {
        guard let version, let persistence, version < host.current.version, !host.hasSensitiveInputs else { return [] }
        return ((try? await persistence.versions(of: host.path, after: version)) ?? nil) ?? []
    }
}

extension ViewModelHost {
    /// The snapshot readers get: the last committed version (the newest render before any).
    var current: EncodedSnapshot { committed ?? encoded }
}
