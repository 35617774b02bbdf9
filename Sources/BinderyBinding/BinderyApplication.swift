import BinderyFeatures
import BinderyHTTP
import BinderyRuntime
import BinderyStore
import BinderyUpstream
import Logging
import Synchronization

/// A Bindery server: the HTTP server, the sessions and their view models, the fake upstream.
///
/// `bindery` and the integration tests build it the same way.
public final class BinderyApplication: Sendable {
    /// The configuration it was built with.
    public let configuration: BinderyConfiguration
    /// The live sessions.
    public let sessions: SessionStore
    /// The open event streams.
    public let streams: EventStreams
    /// The fake upstream provider shared by all sessions.
    public let upstream: UpstreamProvider
    /// The Prometheus metrics served at `/metrics`.
    public let metrics: BinderyMetrics
    /// The recipes every session shares.
    public let recipes: RecipeBook
    /// Where sessions last.
    private let store: any SessionStateStore
    private let server: HTTPServer
    private let logger: Logger
    private let clock: any Clock<Duration>
    private let background = Mutex<[Task<Void, Never>]>([])
    private let readiness = ReadinessFlag()
    private let storeReachable = ReadinessFlag(true)

    /// Makes the screens a server serves from its upstream and a log for failures view models
    /// swallow.
    public typealias ScreenFactory = @Sendable (UpstreamProvider, @escaping @Sendable (String) -> Void) -> [Screen]

    /// Builds the application; nothing listens until ``start()``.
    ///
    /// `store` keeps sessions across restarts (open it with ``BinderyStore/StoreLocation``);
    /// `clock` drives the upstream's latency, heartbeats and sweeps (tests may inject their own);
    /// `screens` are the features' screens unless a test serves its own view models; `recipes`
    /// is the shared recipe book (open it from the store with ``openRecipes(store:)``; without
    /// one, an in-memory book with the first-start recipes that does not last).
    public init(
        configuration: BinderyConfiguration, logger: Logger, store: any SessionStateStore = MemoryStore(),
        clock: any Clock<Duration> = ContinuousClock(), recipes: RecipeBook? = nil,
        screens makeScreens: ScreenFactory? = nil
    ) {
        let recipes = recipes ?? .inMemory()
        let makeScreens = makeScreens ?? { FeatureScreens.all(upstream: $0, log: $1, recipes: recipes, clock: clock) }
        self.recipes = recipes
        self.store = store
        self.configuration = configuration
        self.logger = logger
        self.clock = clock
        let metrics = BinderyMetrics()
        let upstream = UpstreamProvider(settings: configuration.upstream, clock: clock) { call in
            metrics.upstream(endpoint: call.endpoint.rawValue, duration: call.duration, failed: call.error != nil)
        }
        let screens = makeScreens(upstream) { [logger] message in logger.warning("\(message)") }
        let sessions = SessionStore(
            limits: configuration.sessions, screens: screens, store: store,
            commandLease: configuration.commandLease.timeInterval, reserved: [StoreRecipeRepository.session],
            metrics: metrics
        )
        let streams = EventStreams(limits: configuration.streams)
        self.upstream = upstream
        self.metrics = metrics
        self.sessions = sessions
        self.streams = streams
        let readiness = readiness
        let storeReachable = storeReachable
        let router = BinderyRoutes(
            configuration: configuration, screens: screens, sessions: sessions, streams: streams, upstream: upstream,
            metrics: metrics, commits: store as? any GroupCommitReporting,
            ready: { readiness.isReady && storeReachable.isReady }
        ).router()
        server = HTTPServer(configuration: configuration.server, responder: router, logger: logger) { request in
            metrics.request(route: request.route, method: request.method, status: request.status, duration: request.duration)
        }
    }

    /// Starts listening and the background work (heartbeats, session sweeps).
    ///
    /// Returns the bound port (useful with port 0).
    @discardableResult
    public func start() throws -> Int {
        try server.start()
        readiness.set(true)
        let streams = streams
        let sessions = sessions
        let clock = clock
        let interval = configuration.sweepInterval
        let probe = StoreProbe(store: store, clock: clock, timeout: .seconds(2))
        let storeReachable = storeReachable
        let metrics = metrics
        let follower = (store as? any ChangeFeed).map { ChangeFollower(feed: $0, sessions: sessions, metrics: metrics) }
        let recipeFollower = (store as? any ChangeFeed).map { [recipes] in RecipeFollower(feed: $0, book: recipes) }
        let keeper = (store as? any ChangeFeed).map {
            CommandLeaseKeeper(feed: $0, sessions: sessions, lease: configuration.commandLease, clock: clock)
        }
        background.withLock { tasks in
            tasks.append(Task { await streams.runHeartbeats(clock: clock) })
            if let follower { tasks.append(Task { await follower.run() }) }
            if let recipeFollower { tasks.append(Task { await recipeFollower.run() }) }
            if let keeper { tasks.append(Task { await keeper.run() }) }
            tasks.append(Task {
                while !Task.isCancelled {
                    let reachable = await probe.isReachable()
                    storeReachable.set(reachable)
                    metrics.storeReachable(reachable)
                    do { try await clock.sleep(for: .seconds(2)) } catch { return }
                }
            })
            tasks.append(Task {
                while !Task.isCancelled {
                    do { try await clock.sleep(for: interval) } catch { return }
                    await sessions.sweep()
                }
            })
        }
        logger.info("Bindery listening", metadata: ["http.port": "\(server.port)"])
        return server.port
    }

    /// The port the server listens on.
    public var port: Int { server.port }

    /// Stops cleanly, in an order where nothing is refused before `/readyz` says so and no
    /// request is left without an answer:
    /// 1. `/readyz` answers 503 from now on;
    /// 2. the server stops accepting, ends every event stream, lets running requests finish for
    ///    up to two seconds and answers the rest 503 with `Retry-After` (a command's or a
    ///    long-poll's client hears "shutting down", not a cancellation or "not found");
    /// 3. the sessions end; deferred commands still running are recorded as interrupted in the
    ///    store (see ``recordInterrupted(_:)``), so a restart or another node shows them so;
    /// 4. the store finishes its writes and closes.
    public func shutdown() async {
        readiness.set(false)
        background.withLock { tasks in
            tasks.forEach { $0.cancel() }
            tasks.removeAll()
        }
        await server.shutdown()
        await recordInterrupted(await sessions.shutDownAll())
        do {
            try await store.close()
        } catch {
            logger.error("Could not close the store: \(error)")
        }
        logger.info("Bindery stopped")
    }
}

extension BinderyApplication {
    /// Records the deferred commands this process was running at shutdown as interrupted. On a
    /// shared store (several nodes) it gives up their leases, so the other nodes show them
    /// interrupted at their next lease check instead of a whole lease later; on an embedded
    /// store every running command is this process's, and all are marked.
    private func recordInterrupted(_ running: [ViewModelKey: String]) async {
        guard !running.isEmpty else { return }
        do {
            if let feed = store as? any ChangeFeed {
                try await feed.releaseCommandLeases(running)
            } else {
                _ = try await store.markRunningCommandsInterrupted()
            }
            logger.info("Recorded running commands as interrupted", metadata: ["commands": "\(running.count)"])
        } catch {
            logger.error("Could not record the running commands as interrupted: \(error)")
        }
    }

    /// Opens the shared recipe book kept in `store`, storing the first-start recipes when it holds
    /// none.
    public static func openRecipes(store: any SessionStateStore) async throws -> RecipeBook {
        try await RecipeBook.open(repository: StoreRecipeRepository.open(store: store))
    }
}
