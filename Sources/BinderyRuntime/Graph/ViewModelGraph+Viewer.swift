/// The session's viewer: its read rules checked on every path a request takes, and as
/// ``Viewer/current`` for what the graph runs on a request's behalf and for every render, so access
/// rules and the code they guard see who asked even when no server set it (in-process use of a
/// graph with a viewer).
extension ViewModelGraph {
    /// Refuses a viewer who may not read the view model at `path` or any above it.
    func checkRead(_ path: String) throws(ViewModelError) {
        guard let viewer, !isClosed else { return }
        for model in readChain(path) { try model.checkRead(by: viewer) }
    }

    /// The view models from the root down to the one at `path` (those that resolve).
    func readChain(_ path: String) -> [any ViewModel] {
        var chain: [any ViewModel] = []
        var end = path.startIndex
        while end < path.endIndex {
            end = path[path.index(after: end)...].firstIndex(of: "/") ?? path.endIndex
            if let model = resolve(String(path[..<end])) { chain.append(model) }
        }
        return chain
    }

    /// Renders every view model again and waits until that is committed: the viewer signed in,
    /// and what its view models show of the user is in their snapshots before the sign-in is
    /// answered. Not left to Observation alone: its callback comes before the user is stored, so
    /// a flush racing it could render the old user and track nothing more. A render that shows
    /// the same members as before makes no new version.
    package func viewerChanged() async {
        for host in hosts.values {
            host.signal.dropTracking()
            host.signal.fire()
        }
        await settle()
    }

    /// Refreshes `host` as the session's viewer sees it (the commands it may not run show
    /// disabled): whatever task flushes, the render's ``Viewer/current`` is the session's.
    func render(_ host: ViewModelHost) -> (EncodedSnapshot, JSONValue, Bool, [ShownTexts.Shown])? {
        guard let viewer, Viewer.current !== viewer else { return host.refresh() }
        return Viewer.$current.withValue(viewer) { host.refresh() }
    }

    /// Runs `body` as the session's viewer, unless it already is (or the graph has none).
    func asViewer<T, Failure: Error>(_ body: () throws(Failure) -> T) throws(Failure) -> T {
        guard let viewer, Viewer.current !== viewer else { return try body() }
        return try Viewer.$current.withValue(viewer) { Result { () throws(Failure) -> T in try body() } }.get()
    }

    /// Awaits `body` as the session's viewer, unless it already is (or the graph has none).
    func asViewer<T: Sendable, Failure: Error>(_ body: () async throws(Failure) -> T) async throws(Failure) -> T {
        guard let viewer, Viewer.current !== viewer else { return try await body() }
        let result = await Viewer.$current.withValue(viewer) { () async -> Result<T, Failure> in
            do throws(Failure) {
                return .success(try await body())
            } catch {
                return .failure(error)
            }
        }
        return try result.get()
    }
}
