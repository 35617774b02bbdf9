/// View models whose subject no longer exists (``ViewModel/isGone``, a deleted recipe).
extension ViewModelGraph {
    /// Stops hosting every gone view model: its commands are cancelled, its streams end, its
    /// long-polls end with nothing, and its path answers 404 from then on (its parent no longer
    /// resolves it). Runs at the start of every flush, so a gone view model is never rendered again.
    func dropGoneHosts() {
        for (path, host) in hosts where host.viewModel.isGone {
            hosts[path] = nil
            board.invalidate(path)
            host.viewModel.commandStates.cancelAll()
            host.activation?.cancel()
            host.watchers.values.forEach { $0.end() }
            host.watchers.removeAll()
            host.waiters.values.forEach { $0.resume(returning: nil) }
            host.waiters.removeAll()
        }
    }
}
