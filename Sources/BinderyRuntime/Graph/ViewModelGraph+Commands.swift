/// Deferred commands across nodes sharing a store: the leases of the commands this node runs,
/// commands of a node that went away, and a command's end that another node's write overtook.
extension ViewModelGraph {
    /// The end of a command (started here) whose version lost a race with another node's write:
    /// what the end changed is applied again on top of that write instead of being dropped.
    struct CommandEnd {
        let host: ViewModelHost
        /// The committed state the end's version replaced.
        let base: JSONValue?
        /// The state the end's version had.
        let local: JSONValue

        /// The command ends in a refused batch, with their states before the roll-back.
        static func collect(from batch: CommitPipeline.Batch) -> [CommandEnd] {
            var ends: [ObjectIdentifier: CommandEnd] = [:]
            for (version, committed) in zip(batch.rendered, batch.versions)
            where batch.commandEnds.contains(ObjectIdentifier(version.host)) {
                // The newest version of a view model in the batch wins.
                ends[ObjectIdentifier(version.host)] = CommandEnd(
                    host: version.host, base: version.host.committedState, local: committed.state
                )
            }
            return Array(ends.values)
        }
    }

    /// The deferred commands running on this node, by view-model path: the caller renews their
    /// leases in the shared store, so other nodes keep showing them as executing.
    package func commandsRunningHere() -> [String: String] {
        var running: [String: String] = [:]
        for (path, host) in hosts {
            if let name = host.viewModel.deferredCommandRunningHere { running[path] = name }
        }
        return running
    }

    /// Ends the graph at server shutdown and returns the deferred commands that were running
    /// here, by view-model path, for the caller to record as interrupted in the store.
    ///
    /// The graph closes first, so cancelling the commands commits nothing (their versions keep
    /// saying they were running); then the commits already under way are awaited, so none lands
    /// after the caller's record.
    package func shutDown() async -> [String: String] {
        let running = commandsRunningHere()
        close()
        _ = await commits.chain?.value
        return running
    }

    /// Checks the commands shown here as running on another node: a view model the store holds a
    /// newer version of is reloaded; one whose command's lease lapsed (its node is gone) shows the
    /// command interrupted, committed as a new version that every node then shows.
    package func expireLapsedCommands() async {
        guard let persistence, !isClosed else { return }
        for host in Array(hosts.values) where host.viewModel.deferredCommandRunningElsewhere != nil {
            guard let record = try? await persistence.latest(of: host.path) else { continue }
            if record.version > host.newestKnownVersion {
                await reload(host)
            } else if let name = record.interruptedCommand, host.viewModel.deferredCommandRunningElsewhere == name {
                interrupt(name, of: host)
                // A conflict means another node wrote first: the batch reloads its version.
                _ = await flush()?.value
            }
        }
    }

    /// Applies command ends again on top of the versions that overtook them: each top-level member
    /// of the persisted state the end changed takes the end's value, every other member keeps the
    /// other node's. The result is a new version; if that loses a race too, it is applied again.
    /// It is nobody's request (its task inherits the claim of whichever opened the refused batch):
    /// an end claims its command's key by itself, when its work succeeded.
    func reapply(_ ends: [CommandEnd]) async {
        await settleClaimingNothing()
        guard !isClosed else { return }
        for end in ends {
            guard let remote = end.host.committedState else { continue }
            end.host.viewModel.restorePersistedState(JSONValue.merge(base: end.base, local: end.local, remote: remote))
            // The command has ended here; the marker the other node kept goes with this version.
            end.host.viewModel.showStoredCommand(running: nil)
        }
        flushClaimingNothing()
    }
}
