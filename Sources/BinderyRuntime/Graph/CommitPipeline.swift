/// The way from a rendered version to a durable, published one, for one session's graph.
///
/// Versions rendered by a flush join the open batch; one batch commits at a time, each after the
/// one before, so a burst of writes to a session shares its store transactions. A committed batch
/// is published (the board, the watchers, the long-polls). A refused one is rolled back, so
/// nothing changes in memory either; when another node committed first, its view models are
/// reloaded and the command ends it showed are applied again on top. The pipeline also decides
/// which idempotency key each version claims (see ``RequestClaim``).
///
/// It lives in its graph's isolation: the graph owns it and every method takes the graph as its
/// `isolated` argument, so the pipeline's state is the actor's state, in a type of its own.
package final class CommitPipeline {
    /// How a commit ended: nil when durable and published, else why it was refused (rolled back).
    package typealias Outcome = ViewModelError?
    /// A batch's commit in flight.
    package typealias Commit = Task<Outcome, Never>

    /// Where versions are committed; nil publishes them at once.
    let persistence: (any ViewModelPersistence)?
    /// The last batch handed to the store; each waits for the one before. Nil once it is done.
    private(set) var chain: Commit?
    /// Counts batches, so a finished one knows whether it is still the last.
    private var count = 0
    /// The batch that has not started yet: versions rendered now join it.
    private var openBatch: Batch?
    /// View models whose commit was refused (another node committed first) and that are being
    /// reloaded: flushes skip them until their newest committed state is in.
    private var reloading: Set<ObjectIdentifier> = []
    /// While set, new versions claim no idempotency key: what a flush renders then is not the
    /// doing of the request that runs it (see ``ViewModelGraph/flushUnclaimed()``).
    var claimsWithheld = false

    /// Creates the pipeline of a graph committing to `persistence`.
    init(persistence: (any ViewModelPersistence)?) {
        self.persistence = persistence
    }

    /// Whether no batch is open or in flight.
    var isIdle: Bool { chain == nil && openBatch == nil }

    /// Whether `host` waits for its reload after a refused commit (nothing renders it meanwhile).
    func isReloading(_ host: ViewModelHost) -> Bool { reloading.contains(ObjectIdentifier(host)) }

    /// Ends `host`'s wait for its reload: it renders again.
    func reloaded(_ host: ViewModelHost) { reloading.remove(ObjectIdentifier(host)) }

    /// Hands rendered versions to the persistence, or publishes them at once without one.
    /// Returns the commit they joined, if they needed one.
    func commit(_ rendered: [ViewModelGraph.RenderedVersion], in graph: isolated ViewModelGraph) -> Commit? {
        guard !rendered.isEmpty else { return nil }
        let timing = claimsWithheld ? nil : RequestTiming.current
        guard let persistence else {
            timing?.mark(.commitStarted)
            timing?.mark(.committed)
            for version in rendered {
                graph.publish(version)
                if !version.host.watchers.isEmpty { timing?.mark(.pushed) }
            }
            return nil
        }
        // A restored or reloaded view model's render shows the version the store already holds.
        rendered.filter(\.isStored).forEach { graph.publish($0) }
        let new = rendered.filter { !$0.isStored }
        // No batch for nothing: an empty one would chain on (and report) the previous outcome.
        guard !new.isEmpty else { return nil }
        let batch = openBatch ?? start(persistence, in: graph)
        for version in new {
            batch.add(version, claim: claim(ofVersionOf: version.host, running: version.host.viewModel.runningDeferredCommand), timing: timing)
        }
        return batch.task
    }

    /// Opens the batch that collects versions rendered while the previous one commits; it
    /// commits all of them in one call as soon as the previous one is done.
    private func start(_ persistence: any ViewModelPersistence, in graph: isolated ViewModelGraph) -> Batch {
        let batch = Batch()
        let previous = chain
        count += 1
        let number = count
        // Capturing the isolated graph isolates the task to it: the pipeline is the graph's state.
        batch.task = Task { await self.run(batch, after: previous, number: number, on: persistence, in: graph) }
        openBatch = batch
        chain = batch.task
        return batch
    }

    /// Commits `batch` once `previous` is done, then publishes it, or rolls it back.
    private func run(
        _ batch: Batch, after previous: Commit?, number: Int, on persistence: any ViewModelPersistence,
        in graph: isolated ViewModelGraph
    ) async -> Outcome {
        // A batch rendered on top of one that was refused is refused too: its base was rolled back.
        let refusal = await previous?.value ?? nil
        if openBatch === batch { openBatch = nil }
        guard !batch.versions.isEmpty else { return refusal }
        do throws(ViewModelError) {
            if let refusal { throw refusal }
            let started = ContinuousClock.now
            for timing in batch.timings { timing?.mark(.commitStarted, at: started) }
            try await persistence.commit(batch.versions)
            let committed = ContinuousClock.now
            for timing in batch.timings { timing?.mark(.committed, at: committed) }
        } catch {
            await refuse(batch, because: error, in: graph)
            if count == number { chain = nil }
            return error
        }
        for (index, (version, committed)) in zip(batch.rendered, batch.versions).enumerated() {
            version.host.committedState = committed.state
            version.host.committedCommand = committed.runningCommand
            graph.publish(version)
            if !version.host.watchers.isEmpty { batch.timings[index]?.mark(.pushed) }
        }
        forgetSucceededClaims(of: batch)
        // Nothing waits on a finished commit: an idle session keeps no task (a finished task
        // still holds its allocation, over a kilobyte per session).
        if count == number { chain = nil }
        return nil
    }

    /// Rolls a refused batch back. When another node committed first, its view models are
    /// reloaded (nothing renders them until then, or a render of the rolled-back state would be
    /// refused again; requests meanwhile wait for this batch, still the chain) and what its
    /// command ends changed is applied again on top of the other node's versions.
    private func refuse(_ batch: Batch, because error: ViewModelError, in graph: isolated ViewModelGraph) async {
        let conflict = error == .versionConflict
        let ends = conflict ? ViewModelGraph.CommandEnd.collect(from: batch) : []
        let refused = Dictionary(batch.rendered.map { (ObjectIdentifier($0.host), $0.host) }) { first, _ in first }
        if conflict { reloading.formUnion(refused.keys) }
        rollBack(batch.rendered, in: graph)
        guard conflict else {
            // The ends it showed are rolled back: they claim nothing any more.
            forgetSucceededClaims(of: batch)
            return
        }
        for host in refused.values { await graph.reload(host) }
        if !ends.isEmpty { Task { await graph.reapply(ends) } }
    }

    /// Puts view models whose versions could not be committed back to their committed state.
    func rollBack(_ failed: [ViewModelGraph.RenderedVersion], in graph: isolated ViewModelGraph) {
        for version in failed {
            let host = version.host
            if let state = host.committedState { host.viewModel.restorePersistedState(state) }
            host.rollBack()
            if let committed = host.committed, host.isServedFromBoard { graph.board.publish(committed) }
        }
    }
}

extension CommitPipeline {
    /// Versions waiting to be committed together, and the task that commits them.
    final class Batch {
        private(set) var versions: [CommittedVersion] = []
        private(set) var rendered: [ViewModelGraph.RenderedVersion] = []
        /// The view models whose versions here end a deferred command started on this node.
        private(set) var commandEnds: Set<ObjectIdentifier> = []
        /// The timing of the request that rendered each version (by index in `rendered`), if any.
        private(set) var timings: [RequestTiming?] = []
        var task: Commit?

        /// Adds one rendered version, claiming `claim`, and moves its host's queue on.
        func add(_ version: ViewModelGraph.RenderedVersion, claim: RequestClaim?, timing: RequestTiming?) {
            let host = version.host
            let running = host.viewModel.runningDeferredCommand
            versions.append(
                CommittedVersion(
                    path: host.path, expected: host.queuedVersion, snapshot: version.snapshot,
                    state: host.viewModel.persistedState, runningCommand: running, claim: claim,
                    loggedSnapshot: SensitiveRedaction.masked(version.body, inputs: host.sensitiveInputs).map {
                        ViewModelHost.encode($0, version: version.snapshot.version, capacity: version.snapshot.bytes.count)
                    },
                    sealedMembers: host.sensitiveInputs, shape: host.viewModel.persistedShape.stored
                ))
            rendered.append(version)
            timings.append(timing)
            if host.queuedCommand != nil, running == nil { commandEnds.insert(ObjectIdentifier(host)) }
            host.queuedVersion = version.snapshot.version
            host.queuedCommand = running
        }
    }
}
