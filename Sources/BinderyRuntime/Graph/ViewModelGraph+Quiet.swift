extension ViewModelGraph {
    /// Whether nothing in the graph is under way or watched: no event stream, no long-poll, no
    /// running deferred command, no commit in flight or waiting, and a store behind it.
    ///
    /// A quiet graph may leave memory: every version it shows is committed, so it comes back from
    /// the store exactly as after a restart (same versions, same state).
    package var isQuiet: Bool {
        guard persistence != nil, commits.isIdle else { return false }
        return hosts.values.allSatisfy { host in
            host.watchers.isEmpty && host.waiters.isEmpty && host.viewModel.runningDeferredCommand == nil
        }
    }
}
