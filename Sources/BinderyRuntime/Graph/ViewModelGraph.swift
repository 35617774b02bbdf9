import Foundation
import Synchronization

/// A session's live graph of view models: one isolation domain that owns every view model,
/// its versions and its watchers.
///
/// All reads and writes of a session go through here; nothing here knows about HTTP.
package actor ViewModelGraph {
    /// The latest snapshots, readable without a hop onto this actor.
    package nonisolated let board = SnapshotBoard()

    private let screens: [String: Screen]
    /// Who the session's view models are shown to; nil (in-process use) checks no access rule.
    package nonisolated let viewer: Viewer?
    let clock: any Clock<Duration>
    /// Where new versions are committed before anyone sees them; nil publishes them at once.
    let persistence: (any ViewModelPersistence)?
    /// What a restart brought back, by path, read through each declaration's migrations; used
    /// as each view model is first made.
    private var restored: [String: RestoredViewModel]
    /// Stored state this build cannot read (written by a newer declaration, or that a missing
    /// migration would lose), by path: its view model (and, for a root, its screen) is refused,
    /// never made afresh nor written over.
    var unreadable: [String: PersistedStateError] = [:]
    /// How rendered versions become durable and published: batches, their chain, roll-back,
    /// reloads after a conflict, idempotency claims.
    let commits: CommitPipeline
    /// The root view models made so far, by screen name: a few, so an array (smaller than a dictionary).
    private var rootModels: [(name: String, model: any ViewModel)] = []
    var hosts: [String: ViewModelHost] = [:]
    private var nextID = 0
    private(set) var isClosed = false
    private nonisolated let flushPending = Atomic<Bool>(false)

    /// Creates a graph whose root view models are built on first use from `screens`.
    ///
    /// With `persistence`, every new version is committed before it is answered, pushed or
    /// served; `restored` continues view models from a previous process.
    package init(
        screens: [Screen], clock: any Clock<Duration> = ContinuousClock(),
        persistence: (any ViewModelPersistence)? = nil, restored: [String: RestoredViewModel] = [:], viewer: Viewer? = nil
    ) {
        self.init(screens: Screen.byName(screens), clock: clock, persistence: persistence, restored: restored, viewer: viewer)
    }

    /// Creates a graph from screens already keyed by name: every session of a process can share
    /// one dictionary instead of building its own.
    ///
    /// With `viewer`, every request is checked against the view models' access rules, and
    /// renders see it as ``Viewer/current``.
    package init(
        screens: [String: Screen], clock: any Clock<Duration> = ContinuousClock(),
        persistence: (any ViewModelPersistence)? = nil, restored: [String: RestoredViewModel] = [:], viewer: Viewer? = nil
    ) {
        self.screens = screens
        self.clock = clock
        self.persistence = persistence
        self.commits = CommitPipeline(persistence: persistence)
        self.viewer = viewer
        var readable: [String: RestoredViewModel] = [:]
        for (path, record) in restored {
            do throws(PersistedStateError) {
                readable[path] = try Self.shape(at: path, in: screens).map(record.read(by:)) ?? record
            } catch {
                unreadable[path] = error
            }
        }
        self.restored = readable
    }

    /// The persisted shape of the view model at `path`, as its screen declares it; nil when no
    /// screen or route addresses it any more.
    static func shape(at path: String, in screens: [String: Screen]) -> PersistedShape? {
        let segments = path.split(separator: "/", omittingEmptySubsequences: false)
        guard let name = segments.first, let screen = screens[String(name)] else { return nil }
        return screen.schema.descendant(at: segments.dropFirst())?.persistence
    }

    /// Refuses `path` when its stored state, or its screen's, cannot be read by this build.
    func checkReadable(_ path: String) throws(ViewModelError) {
        guard !unreadable.isEmpty else { return }
        let root = path.split(separator: "/", maxSplits: 1).first.map(String.init) ?? path
        if let error = unreadable[path] ?? unreadable[root] {
            throw .storedStateUnreadable(path: unreadable[path] == nil ? root : path, error: error)
        }
    }

    // MARK: Reading and writing

    /// The current snapshot of the view model at `path`.
    package func snapshot(_ path: String) async throws(ViewModelError) -> EncodedSnapshot {
        let host = try await preparedHost(at: path)
        await settle()
        return host.current
    }

    /// Ends the session's graph: cancels running work, ends watches and pending waits.
    package func close() {
        isClosed = true
        // Every command of every view model made here, in-process executions (a deep link's load)
        // included.
        for model in rootModels.map(\.model) + hosts.values.map(\.viewModel) {
            model.commandStates.cancelAll()
        }
        for host in hosts.values {
            host.activation?.cancel()
            host.watchers.values.forEach { $0.end() }
            host.watchers.removeAll()
            host.waiters.values.forEach { $0.resume(returning: nil) }
            host.waiters.removeAll()
        }
        board.removeAll()
    }

    /// Runs `body` with the view model at `path`, inside this graph's isolation domain.
    ///
    /// For in-process callers and tests that need to look at a view model directly.
    package func inspect<Value: Sendable>(_ path: String, _ body: (any ViewModel) -> Value) throws(ViewModelError) -> Value {
        body(try host(at: path).viewModel)
    }

    /// The number of open watches across the graph.
    package var watcherCount: Int { hosts.values.reduce(0) { $0 + $1.watchers.count } }

    // MARK: Propagation

    /// Re-renders every view model that changed and commits the new versions; once committed
    /// they are published to readers and pushed to watchers.
    ///
    /// Returns the commit of what this flush rendered, if it rendered anything to commit.
    @discardableResult
    package func flush() -> CommitPipeline.Commit? {
        flushPending.store(false, ordering: .sequentiallyConsistent)
        guard !isClosed else { return nil }
        var commit: CommitPipeline.Commit?
        dropGoneHosts()
        // A parent's new version may rebuild its children, whose hosts then change in turn.
        for _ in 0..<3 {
            var changed: [RenderedVersion] = []
            for host in hosts.values where !commits.isReloading(host) {
                guard let (snapshot, body, isStored, texts) = render(host) else { continue }
                changed.append(RenderedVersion(host: host, snapshot: snapshot, body: body, isStored: isStored, texts: texts))
            }
            guard !changed.isEmpty else { break }
            commit = commits.commit(changed, in: self) ?? commit
            guard reconcileChildren() else { break }
        }
        return commit
    }

    /// Schedules a flush on the actor; many changes in a row cause one flush. It claims no
    /// request's key, though its task inherits the claim of whatever task made the change (a
    /// command's work, a shared record's commit in another session): see ``flushClaimingNothing()``.
    nonisolated func scheduleFlush() {
        guard !flushPending.exchange(true, ordering: .sequentiallyConsistent) else { return }
        Task { await self.flushClaimingNothing() }
    }

    /// Re-resolves child hosts after their parents changed and swaps rebuilt children in.
    ///
    /// Returns whether any child was swapped. A child that no longer exists keeps its last
    /// snapshot for its watchers; new requests for its path get a 404.
    private func reconcileChildren() -> Bool {
        var swapped = false
        for (path, host) in hosts where path.utf8.contains(UInt8(ascii: "/")) {
            guard let model = resolve(path), model !== host.viewModel else { continue }
            host.replace(with: model)
            swapped = true
        }
        return swapped
    }

    // MARK: Helpers

    private func host(at path: String) throws(ViewModelError) -> ViewModelHost {
        guard !isClosed else { throw .sessionClosed }
        try checkReadable(path)
        // A gone view model (its subject deleted) is not hosted again, even if its parent still
        // resolves it (a deleted recipe's page keeps its timer, which needs the live recipe).
        guard let model = resolve(path), !model.isGone else { throw .notFound(path: path) }
        if let host = hosts[path] {
            if host.viewModel !== model { host.replace(with: model) }
            return host
        }
        let signal = ChangeSignal(path: path, board: board, graph: self)
        let host = ViewModelHost(path: path, viewModel: model, firstVersion: 1, signal: signal)
        // A read rule that depends on the view model is checked at every read: never the board's.
        host.isServedFromBoard = !readChain(path).contains { type(of: $0).readRuleIsConditional }
        hosts[path] = host
        if let record = restored.removeValue(forKey: path) {
            // A child's own persisted state (a recipe timer's step); a root's was put back when
            // the root was made.
            if path.utf8.contains(UInt8(ascii: "/")) { model.restorePersistedState(record.state) }
            continueRestored(host, from: record)
        } else {
            // What a failed first commit rolls back to.
            host.committedState = model.persistedState
        }
        return host
    }

    /// The host at `path`; when a child path does not resolve, lets its root prepare it first.
    func preparedHost(at path: String) async throws(ViewModelError) -> ViewModelHost {
        try checkReadable(path)
        if !isClosed, resolve(path) == nil, let slash = path.firstIndex(of: "/"),
            let root = resolve(String(path[..<slash]))
        {
            let rest = path[path.index(after: slash)...].split(separator: "/").map(String.init)
            // Only a reader of the root may make it load what a child needs.
            try checkRead(String(path[..<slash]))
            // Host the root first: what preparing changes (a load) becomes its own committed
            // version, never part of a restored version's first render.
            _ = try host(at: String(path[..<slash]))
            flush()
            await asViewer { await root.prepareChild(at: rest[...]) }
        }
        try checkRead(path)
        let host = try host(at: path)
        if host.isBehindStore {
            // A notification marked it (see `refresh`): catch up before anyone uses it.
            host.isBehindStore = false
            await reload(host)
        }
        return host
    }

    func resolve(_ path: String) -> (any ViewModel)? {
        let segments = path.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        guard let name = segments.first, segments.allSatisfy({ !$0.isEmpty }) else { return nil }
        let root: any ViewModel
        if let existing = rootModels.first(where: { $0.name == name })?.model {
            root = existing
        } else {
            guard let screen = screens[name] else { return nil }
            root = screen.makeRoot(viewer ?? Viewer())
            if let state = restored[name]?.state { root.restorePersistedState(state) }
            rootModels.append((name, root))
        }
        // Looked up as the session's viewer sees it, whichever task asks.
        return segments.count == 1 ? root : asViewer { root.child(at: segments[1...]) }
    }

    func makeID() -> Int {
        nextID += 1
        return nextID
    }
}
