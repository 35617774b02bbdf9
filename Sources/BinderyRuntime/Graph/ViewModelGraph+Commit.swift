import Foundation

/// Committing versions: a version is rendered, committed to the graph's persistence, and only
/// then published to readers and pushed to watchers. A commit that fails rolls the view models
/// back to their last committed state, so nothing changes in memory either.
extension ViewModelGraph {
    /// How a commit ended.
    package enum CommitOutcome: Sendable {
        /// Durable and published.
        case committed
        /// Refused: another node committed first; rolled back.
        case conflict
        /// The store failed; rolled back.
        case failed
    }

    /// Versions waiting to be committed together, and the task that commits them.
    final class CommitBatch {
        var versions: [CommittedVersion] = []
        var rendered: [RenderedVersion] = []
        /// The view models whose versions here end a deferred command started on this node.
        var commandEnds: Set<ObjectIdentifier> = []
        /// The timing of the request that rendered each version (by index in `rendered`), if any.
        var timings: [RequestTiming?] = []
        var task: Task<CommitOutcome, Never>?
    }

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
        _ = await commitChain?.value
    }

    /// Flushes what changed before a request applies its own change (other sessions' shared
    /// records, renders pending): those versions are not the request's doing and claim no
    /// idempotency key, so a key is taken only with what the request itself wrote.
    @discardableResult
    func flushUnclaimed() -> Task<CommitOutcome, Never>? {
        claimsWithheld = true
        defer { claimsWithheld = false }
        return flush()
    }

    /// Flushes and waits for the commit of what changed; throws when it failed (and was rolled
    /// back): ``ViewModelError/versionConflict`` when another node committed first.
    ///
    /// `flushed` is the commit of a flush the caller just ran (nothing is flushed again then).
    func commitChanges(_ flushed: Task<CommitOutcome, Never>?? = nil) async throws(ViewModelError) {
        // A closed graph (session ended, server stopping) commits nothing: never answer 200.
        guard !isClosed else { throw .sessionClosed }
        // Nothing new rendered: what the caller sees still depends on the commit in flight.
        guard let commit = (flushed ?? flush()) ?? commitChain else { return }
        switch await commit.value {
        case .committed: return
        case .conflict: throw .versionConflict
        case .failed: throw .storeUnavailable
        }
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
        // Renders of a view model whose commit was refused wait for this (see `reloading`).
        reloading.remove(ObjectIdentifier(host))
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

    /// Hands rendered versions to the persistence; publishes them at once without one.
    func commit(_ rendered: [RenderedVersion]) -> Task<CommitOutcome, Never>? {
        guard !rendered.isEmpty else { return nil }
        guard let persistence else {
            let timing = claimsWithheld ? nil : RequestTiming.current
            timing?.mark(.commitStarted)
            timing?.mark(.committed)
            for version in rendered {
                publish(version)
                if !version.host.watchers.isEmpty { timing?.mark(.pushed) }
            }
            return nil
        }
        // A restored or reloaded view model's render shows the version the store already holds.
        let held = rendered.filter(\.isStored)
        held.forEach(publish)
        let new = rendered.filter { !$0.isStored }
        // No batch for nothing: an empty one would chain on (and report) the previous outcome.
        guard !new.isEmpty else { return nil }
        let batch = openBatch ?? startBatch(persistence)
        let timing = claimsWithheld ? nil : RequestTiming.current
        for version in new {
            let host = version.host
            let running = host.viewModel.runningDeferredCommand
            let state = host.viewModel.persistedState
            batch.versions.append(CommittedVersion(
                path: host.path, expected: host.queuedVersion, snapshot: version.snapshot,
                state: state, runningCommand: running, claim: claim(ofVersionOf: host, running: running),
                loggedSnapshot: SensitiveRedaction.masked(version.body, inputs: host.sensitiveInputs).map {
                    ViewModelHost.encode($0, version: version.snapshot.version, capacity: version.snapshot.bytes.count)
                },
                sealedMembers: host.sensitiveInputs, shape: host.viewModel.persistedShape.stored
            ))
            batch.rendered.append(version)
            batch.timings.append(timing)
            if host.queuedCommand != nil, running == nil { batch.commandEnds.insert(ObjectIdentifier(host)) }
            host.queuedVersion = version.snapshot.version
            host.queuedCommand = running
        }
        return batch.task
    }

    /// Opens the batch that collects versions rendered while the previous one commits; it
    /// commits all of them in one call as soon as the previous one is done (one commit in flight
    /// per session, so a burst of writes to one session shares its store transactions).
    private func startBatch(_ persistence: any ViewModelPersistence) -> CommitBatch {
        let batch = CommitBatch()
        let previous = commitChain
        commitCount += 1
        let number = commitCount
        batch.task = Task { [self] in
            // A commit rendered on top of one that failed is refused too: its base was rolled back.
            let before = await previous?.value ?? .committed
            if openBatch === batch { openBatch = nil }
            guard !batch.versions.isEmpty else { return before }
            do {
                switch before {
                case .committed: break
                case .conflict: throw VersionConflict()
                case .failed: throw ViewModelError.storeUnavailable
                }
                let started = ContinuousClock.now
                for timing in batch.timings { timing?.mark(.commitStarted, at: started) }
                try await persistence.commit(batch.versions)
                let committed = ContinuousClock.now
                for timing in batch.timings { timing?.mark(.committed, at: committed) }
            } catch {
                // What a command's end changed, to apply again on top of the other node's version.
                let ends = error is VersionConflict ? CommandEnd.collect(from: batch) : []
                let refused = Dictionary(batch.rendered.map { (ObjectIdentifier($0.host), $0.host) }) { first, _ in first }
                // Another node committed first: nothing renders these view models until their
                // newest versions are loaded, or a render of the rolled-back state would be
                // refused again. Requests meanwhile wait for this task (still `commitChain`).
                if error is VersionConflict { reloading.formUnion(refused.keys) }
                self.rollBack(batch.rendered)
                guard error is VersionConflict else {
                    // The ends it showed are rolled back: they claim nothing any more.
                    forgetSucceededClaims(of: batch)
                    // Later renders start from the committed state again, not from this failure.
                    if commitCount == number { commitChain = nil }
                    return .failed
                }
                for host in refused.values { await self.reload(host) }
                if commitCount == number { commitChain = nil }
                if !ends.isEmpty { Task { await self.reapply(ends) } }
                return .conflict
            }
            for (index, (version, committed)) in zip(batch.rendered, batch.versions).enumerated() {
                version.host.committedState = committed.state
                version.host.committedCommand = committed.runningCommand
                self.publish(version)
                if !version.host.watchers.isEmpty { batch.timings[index]?.mark(.pushed) }
            }
            forgetSucceededClaims(of: batch)
            // Nothing waits on a finished commit: an idle session keeps no task (a finished
            // task still holds its allocation, over a kilobyte per session).
            if commitCount == number { commitChain = nil }
            return .committed
        }
        openBatch = batch
        commitChain = batch.task
        return batch
    }

    /// Makes a committed version visible: the board, the watchers, the long-polls.
    func publish(_ version: RenderedVersion) {
        let host = version.host
        let previous = host.wantsPatches
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

    /// Puts view models whose versions could not be committed back to their committed state.
    func rollBack(_ failed: [RenderedVersion]) {
        for version in failed {
            let host = version.host
            if let state = host.committedState { host.viewModel.restorePersistedState(state) }
            host.rollBack()
            if let committed = host.committed, host.isServedFromBoard { board.publish(committed) }
        }
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
