/// Commands requested through the graph: executing one (waiting for it or not) and cancelling
/// its running executions.
extension ViewModelGraph {
    /// Executes a command, waiting up to `wait` for it to finish.
    ///
    /// Immediate commands always finish before this returns. Deferred ones keep running in the
    /// background past the wait; their end shows in later snapshots and events.
    package func execute(
        _ path: String, command name: String, argument: JSONValue?, wait: Duration = .zero
    ) async throws(ViewModelError) -> CommandOutcome {
        let host = try await preparedHost(at: path)
        flushUnclaimed()
        _ = await commits.chain?.value
        // The work's task inherits the viewer: what it changes is checked as the viewer's.
        let (_, started) = try asViewer { () throws(ViewModelError) in
            try host.viewModel.startCommand(name, argument: argument, isolation: self)
        }
        switch started {
        case .finished(let result):
            try await commitChanges()
            return outcome(result, snapshot: host.current)
        case .running(let task):
            // What the request renders from here on (the start, the end, whatever else changed
            // meanwhile) claims no key: its key is claimed by the work's own writes, and by the
            // end only if the work succeeded (see `claim(ofVersionOf:running:)`).
            //
            // The start ("executing") lost a race with another node's version: the reload shows
            // the command still running here and commits that in a version of its own, while the
            // work goes on (it may have written a shared record already). Any other failure stops
            // this execution only: others of a concurrent or queued command go on.
            var refused: ViewModelError?
            do {
                try await commitChanges(flushClaimingNothing())
            } catch {
                if case .versionConflict = error {} else { refused = error }
            }
            if let refused {
                task.cancel()
                _ = await task.value
                throw refused
            }
            guard wait > .zero, let result = await task.value(waitingUpTo: wait, on: clock) else {
                return .running(await latest(path, fallback: host))
            }
            // The end of the work is a new version: answer only once it is committed. One that
            // lost a race with another node's version is applied again on top of it (`reapply`):
            // the work is done either way, so the command succeeded.
            var lostRace = false
            do {
                try await commitChanges(flushClaimingNothing())
            } catch {
                guard case .versionConflict = error else { throw error }
                lostRace = true
            }
            if lostRace { await settleClaimingNothing() }
            return outcome(result, snapshot: (hosts[path] ?? host).current)
        }
    }

    /// Cancels every running execution of a command and waits until their work has stopped.
    ///
    /// Throws ``ViewModelError/commandNotRunning(name:)`` when nothing runs. A cancelled
    /// execution leaves the view model as it was; the snapshot shows `executing: false`.
    package func cancel(_ path: String, command name: String) async throws(ViewModelError) -> EncodedSnapshot {
        let host = try await preparedHost(at: path)
        guard let command = host.viewModel.command(named: name) else { throw .unknownCommand(name: name) }
        try host.viewModel.checkWrite(by: viewer, command: name)
        let stopping = command.cancelAll()
        guard !stopping.isEmpty else { throw .commandNotRunning(name: name) }
        for task in stopping { _ = await task.value }
        try await commitChanges()
        return (hosts[path] ?? host).current
    }

    /// The snapshot of `path` once everything rendered so far is committed (a running command's start).
    private func latest(_ path: String, fallback: ViewModelHost) async -> EncodedSnapshot {
        await settleClaimingNothing()
        return (hosts[path] ?? fallback).current
    }

    /// A finished execution's answer, with the snapshot that shows its end.
    private func outcome(_ result: Result<CommandResult, ExecutionFailure>, snapshot: EncodedSnapshot) -> CommandOutcome {
        switch result {
        case .success(let value): .completed(snapshot, value)
        case .failure(let failure): .failed(snapshot, failure)
        }
    }
}
