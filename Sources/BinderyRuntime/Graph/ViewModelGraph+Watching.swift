/// Watching: event streams (with activation) and long-polls.
extension ViewModelGraph {
    /// Starts watching `path`: `send` gets every new version, starting with the current one
    /// unless the watcher already has it (`after` equals the current version).
    ///
    /// The first watcher makes the view model active. Returns an id for ``unwatch(_:id:)``.
    /// With `patches`, the versions pushed carry a JSON Patch from the previous one when there is
    /// one (``EncodedSnapshot/patch``).
    package func watch(
        _ path: String,
        after: Int?,
        patches: Bool = false,
        admitted: @escaping @Sendable () -> Bool = { true },
        send: @escaping @Sendable (EncodedSnapshot) -> Void,
        end: @escaping @Sendable () -> Void
    ) async throws(ViewModelError) -> Int {
        let host = try await preparedHost(at: path)
        if host.activation == nil { activate(host) }
        await settle()
        let missed = await loggedVersions(of: host, after: after)
        // Checked where nothing else runs before the watcher is in place: a sign-in that replaced
        // the request's token first refuses it here; after, the watcher is sent nothing more.
        guard admitted() else { throw .sessionClosed }
        let id = makeID()
        host.watchers[id] = .init(send: send, end: end, patches: patches, admitted: admitted)
        // While this waited, the last other watcher may have left (deactivating) or the graph closed.
        if isClosed {
            end()
            return id
        }
        if host.activation == nil { activate(host) }
        let current = host.current
        var last = after
        for snapshot in missed where snapshot.version > (last ?? 0) && snapshot.version <= current.version {
            send(snapshot)
            last = snapshot.version
        }
        if last != current.version { send(current) }
        return id
    }

    /// Stops a watch; when the last watcher leaves, the view model becomes inactive and the
    /// work it started on activation is cancelled.
    package func unwatch(_ path: String, id: Int) {
        guard let host = hosts[path], host.watchers.removeValue(forKey: id) != nil else { return }
        if host.watchers.isEmpty {
            host.activation?.cancel()
            host.activation = nil
            host.setActive(false)
        }
        flush()
    }

    /// Waits up to `wait` for a version newer than `version`; nil when none came in time.
    package func snapshot(
        _ path: String, after version: Int, waitingUpTo wait: Duration, admitted: @escaping @Sendable () -> Bool = { true }
    ) async throws(ViewModelError) -> EncodedSnapshot? {
        let host = try await preparedHost(at: path)
        await settle()
        guard admitted() else { throw .sessionClosed }
        if host.current.version != version { return host.current }
        guard wait > .zero else { return nil }
        let id = makeID()
        let clock = clock
        let timer = Task { [weak self] in
            try? await clock.sleep(for: wait)
            await self?.resumeWaiter(path, id: id, with: nil)
        }
        defer { timer.cancel() }
        return await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                host.waiters[id] = .init(continuation: continuation, admitted: admitted)
            }
        } onCancel: {
            Task { await self.resumeWaiter(path, id: id, with: nil) }
        }
    }

    /// Ends the watchers and long-polls of `host` when the session's viewer may no longer read it
    /// (a read rule that depends on the view model: it changed); true when they were ended.
    func endRefusedFollowers(_ host: ViewModelHost) -> Bool {
        guard !host.isServedFromBoard, viewer != nil, (try? checkRead(host.path)) == nil else { return false }
        host.watchers.values.forEach { $0.end() }
        host.watchers.removeAll()
        host.waiters.values.forEach { $0.resume(returning: nil) }
        host.waiters.removeAll()
        return true
    }

    /// Makes the view model active and starts its activation work.
    func activate(_ host: ViewModelHost) {
        host.setActive(true)
        let model = host.viewModel
        // The work of being watched is nobody's request: it does not time the one that opened
        // the stream (nor keep its timing alive while the view model stays watched).
        host.activation = Task { [self] in
            await RequestTiming.$current.withValue(nil) { await self.runWhileActive(model) }
        }
    }

    /// Runs a view model's activation work on this actor, where the view model lives.
    private func runWhileActive(_ model: any ViewModel) async {
        guard !isClosed else { return }
        await model.whileActive()
    }

    /// Ends one long-poll, with a new version or with nothing (timed out, cancelled).
    func resumeWaiter(_ path: String, id: Int, with snapshot: EncodedSnapshot?) {
        hosts[path]?.waiters.removeValue(forKey: id)?.resume(returning: snapshot)
    }
}
