/// What each of Bindery's metric families counts: the `# HELP` line `/metrics` shows for it.
extension BinderyMetrics {
    /// The help texts by family name (the families `/metrics` writes itself carry theirs inline).
    static let helpTexts: [String: String] = [
        "bindery_sessions_live": "Sessions held in memory.",
        "bindery_event_streams_open": "Event streams (text/event-stream) open now.",
        "bindery_sessions_hibernated_total": "Quiet sessions that left memory for the store.",
        "bindery_http_requests_total": "HTTP requests answered, by route, method and status.",
        "bindery_http_request_duration_seconds": "Time from a request received to its answer, by route.",
        "bindery_command_executions_total": "Command executions, by view model path pattern and command.",
        "bindery_command_failures_total": "Command executions that failed, by view model path pattern and command.",
        "bindery_idempotent_retries_total":
            "Requests with an Idempotency-Key answered without running: replayed, in_progress (409) or reused (422).",
        "bindery_write_to_commit_seconds": "Time from a write received to its version committed, by screen.",
        "bindery_write_to_push_seconds":
            "Time from a write received to its version written to the last watcher, by screen.",
        "bindery_latency_budget_breaches_total": "Writes slower than a declared latency budget, by screen and measure.",
        "bindery_store_commit_duration_seconds": "Time the store took to commit a version.",
        "bindery_store_commit_refusals_total":
            "Commits the store did not take, by outcome: conflict (another node's version came first) or failed.",
        "bindery_store_changes_received_total": "Changes the store announced to this node (other nodes' commits in spaces held here).",
        "bindery_sessions_let_go_total": "Sessions that left memory because another node wrote them while nobody here used them.",
        "bindery_store_notifications_total": "Other nodes' commits of view models held here.",
        "bindery_store_notifications_deferred_total":
            "Other nodes' commits only marked behind here, because nobody here followed the view model.",
        "bindery_store_notification_lag_seconds": "Time from another node's commit to the refresh that pushed it here.",
        "bindery_store_reachable": "Whether the store answered the last readiness probe (1) or not (0).",
        "bindery_stored_states_set_aside": "Stored states set aside because this build cannot read them.",
    ]
}
