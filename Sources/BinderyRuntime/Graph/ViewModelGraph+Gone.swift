/// View models whose subject no longer exists (``ViewModel/isGone``, a deleted record).
extension ViewModelGraph {
    /// Stops hosting every gone view model: its commands are cancelled, its streams end, its
    /// long-polls end with nothing, and its path answers 404 from then on (its parent no longer
    /// resolves it). Runs at the start of every flush, so a gone view model is never rendered again.
    func dropGoneHosts() {
        for host in hosts.values where host.viewModel.isGone {
            letGo(host)
        }
    }

    /// Stops hosting `host`: its commands are cancelled, its streams end, its long-polls end with
    /// nothing, the board forgets it.
    func letGo(_ host: ViewModelHost) {
        hosts[host.path] = nil
        endFollowers(of: host)
        host.viewModel.commandStates.cancelAll()
    }

    /// Ends what follows `host` from outside: its streams (their clients reopen, perhaps on
    /// another node), its long-polls (with nothing), its activation work; the board forgets it.
    ///
    /// For a view model whose stored state this node cannot read any more (a newer build wrote
    /// it): it stays hosted, so a request already holding it still renders and commits, and that
    /// commit is refused by the store's version (409) — never answered as done with nothing
    /// committed. Every later request is refused by ``checkReadable(_:)``.
    func endFollowers(of host: ViewModelHost) {
        board.invalidate(host.path)
        host.activation?.cancel()
        host.watchers.values.forEach { $0.end() }
        host.watchers.removeAll()
        host.waiters.values.forEach { $0.resume(returning: nil) }
        host.waiters.removeAll()
    }
}
