/// Which idempotency key a new version claims (see ``RequestClaim``). The key is taken exactly
/// when something its request asked for is durable, and a claim without that turns a lost answer
/// into a replayed success for work that never happened; so a version claims a key only when it
/// holds that request's own doing:
///
/// - a flush on a keyed request's own task (its write, an immediate command) claims its key;
/// - a deferred command's end claims its request's key only when the work succeeded (the key
///   waits on the command until a version showing the end is committed), never the end of work
///   that failed or was cancelled, which did nothing the request asked for;
/// - a scheduled flush, a reload, what a deferred command's request renders around its work, and
///   rolled-back state claim nothing: a task-local claim is inherited by every task a request's
///   task starts (its command's work, a shared record's commit, the flushes their changes
///   schedule in every session that shows the record), so what such a task renders says nothing
///   about the request.
extension CommitPipeline {
    /// The key a new version of `host` claims; `running` is the deferred command it shows running.
    func claim(ofVersionOf host: ViewModelHost, running: String?) -> RequestClaim? {
        guard !claimsWithheld, !host.showsRolledBackState else { return nil }
        if running == nil, let ended = host.viewModel.commandStates.succeededClaim { return ended }
        return RequestClaim.current
    }

    /// Forgets the succeeded commands' keys that `batch` claimed: committed, their ends hold them;
    /// rolled back after a failure, their ends are gone.
    func forgetSucceededClaims(of batch: Batch) {
        for (version, committed) in zip(batch.rendered, batch.versions) {
            guard let claim = committed.claim else { continue }
            version.host.viewModel.commandStates.forgetSucceededClaim(claim)
        }
    }
}

/// Flushes whose versions claim no key.
extension ViewModelGraph {
    /// Flushes without claiming the key of the request whose task runs it (it still times it).
    @discardableResult
    func flushClaimingNothing() -> CommitPipeline.Commit? {
        RequestClaim.$current.withValue(nil) { flush() }
    }

    /// Flushes without claiming a key and waits for everything rendered so far to be committed.
    func settleClaimingNothing() async {
        flushClaimingNothing()
        _ = await commits.chain?.value
    }
}
