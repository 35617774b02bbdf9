import CoreMetrics

/// The store's metrics: commit latency and failures, version conflicts between nodes, change
/// notifications received and how long after the commit they were pushed.
extension BinderyMetrics {
    /// Records one commit's latency and whether it failed or lost a version race.
    package func storeCommit(duration: Duration, outcome: String) {
        CoreMetrics.Timer(label: "bindery_store_commit_duration_seconds", dimensions: [], factory: factory)
            .recordNanoseconds(duration.nanoseconds)
        guard outcome != "committed" else { return }
        CoreMetrics.Counter(label: "bindery_store_commit_refusals_total", dimensions: [("outcome", outcome)], factory: factory)
            .increment()
    }

    /// Counts another node's commit of a view model held here (newer than this node's copy) and
    /// records the time from its commit to the refresh that pushed it here; `reloaded` false
    /// counts it among those only marked behind (nobody here followed the view model).
    package func storeNotification(lag: Duration?, reloaded: Bool) {
        CoreMetrics.Counter(label: "bindery_store_notifications_total", dimensions: [], factory: factory).increment()
        if !reloaded {
            CoreMetrics.Counter(label: "bindery_store_notifications_deferred_total", dimensions: [], factory: factory)
                .increment()
        }
        if let lag {
            CoreMetrics.Timer(label: "bindery_store_notification_lag_seconds", dimensions: [], factory: factory)
                .recordNanoseconds(lag.nanoseconds)
        }
    }

    /// Counts a change announced to this node by the store (another node's commit in a space this
    /// node holds), whatever it then does with it.
    package func storeChangeReceived() {
        CoreMetrics.Counter(label: "bindery_store_changes_received_total", dimensions: [], factory: factory).increment()
    }

    /// Counts a session that left memory because another node wrote it and nobody here used it.
    package func sessionLetGo() {
        CoreMetrics.Counter(label: "bindery_sessions_let_go_total", dimensions: [], factory: factory).increment()
    }

    /// Records whether the store answered the last readiness probe.
    package func storeReachable(_ reachable: Bool) {
        CoreMetrics.Gauge(label: "bindery_store_reachable", dimensions: [], factory: factory).record(reachable ? 1 : 0)
    }
}

extension BinderyMetrics {
    /// Records how many stored states are set aside because this build cannot read them.
    package func storedStatesSetAside(_ count: Int) {
        CoreMetrics.Gauge(label: "bindery_stored_states_set_aside", dimensions: [], factory: factory).record(count)
    }
}
