import BinderyHTTP
import BinderyRuntime
import BinderyStore
import Foundation
import Logging
import ServiceLifecycle
import UnixSignals
import Synchronization
import Tracing

/// A Bindery server: an app's screens and shared models served over HTTP, with its sessions in a
/// store and its background work as `swift-service-lifecycle` services.
///
/// ```swift
/// let server = try await BinderyServer(app, configuration: BinderyConfiguration(store: .memory))
/// try await server.run()   // until SIGINT or SIGTERM, then a graceful shutdown
/// ```
///
/// Tests start one on port 0 with ``start()`` and stop it with ``shutdown()``.
public final class BinderyServer: Sendable {
    /// The configuration it was built with.
    public let configuration: BinderyConfiguration
    /// What it serves.
    public let app: BinderyApp
    /// The live sessions.
    package let sessions: SessionRegistry
    /// The open event streams.
    package let streams: EventStreams
    /// Who is on which screen, on every node.
    let presence: PresenceRelay
    /// The Prometheus metrics served at `/metrics`.
    package let metrics: BinderyMetrics
    /// Where sessions last.
    package let store: any SessionStateStore
    /// The OpenAPI 3.1 document served at `/openapi.json`, as pretty-printed JSON.
    public let openAPIDocument: [UInt8]
    private let server: HTTPServer
    let logger: Logger
    private let clock: any Clock<Duration>
    private let readiness = ReadinessFlag()
    private let storeReachable = ReadinessFlag(true)
    private let running = Mutex<(group: ServiceGroup, task: Task<Void, any Error>)?>(nil)

    /// Builds the server of the app `build` makes, over the store `configuration` names (opened
    /// here: a store that cannot be opened throws); nothing listens until ``run()`` or ``start()``.
    public convenience init(
        configuration: BinderyConfiguration, logger: Logger = Logger(label: "bindery"),
        clock: any Clock<Duration> = ContinuousClock(), app build: @Sendable (AppContext) throws -> BinderyApp
    ) async throws {
        let store = try await configuration.store.open()
        logger.info("Store opened", metadata: ["store": "\(configuration.store)"])
        try self.init(configuration: configuration, logger: logger, store: store, clock: clock, app: build)
    }

    /// Builds the server of `app` over the store `configuration` names; nothing listens until
    /// ``run()`` or ``start()``.
    public convenience init(
        _ app: BinderyApp, configuration: BinderyConfiguration, logger: Logger = Logger(label: "bindery"),
        clock: any Clock<Duration> = ContinuousClock()
    ) async throws {
        try await self.init(configuration: configuration, logger: logger, clock: clock) { _ in app }
    }

    /// Builds the server over an open `store` (tests inject theirs; ``BinderyConfiguration/store``
    /// is not read).
    package init(
        configuration: BinderyConfiguration, logger: Logger, store: any SessionStateStore,
        clock: any Clock<Duration> = ContinuousClock(), app build: @Sendable (AppContext) throws -> BinderyApp
    ) rethrows {
        let metrics = BinderyMetrics()
        let app = try build(AppContext(clock: clock, logger: logger, metrics: metrics.factory))
        self.app = app
        self.store = store
        self.configuration = configuration
        self.logger = logger
        self.clock = clock
        self.metrics = metrics
        let node = UUID().uuidString
        let sessions = SessionRegistry(
            limits: configuration.sessions, screens: app.screens, store: store,
            commandLease: configuration.commandLease.timeInterval, reserved: [StoreRecordStorage.session],
            metrics: metrics, users: app.users, userModels: app.sharedModels, node: node,
            sealing: configuration.sealingKey ?? .random()
        )
        let streams = EventStreams(limits: configuration.streams)
        let presence = PresenceRelay(board: PresenceBoard(), feed: store.capabilities.changeFeed, node: node, logger: logger)
        self.sessions = sessions
        self.streams = streams
        self.presence = presence
        let readiness = readiness
        let storeReachable = storeReachable
        let (router, document) = BinderyRoutes(
            configuration: configuration, app: app, sessions: sessions, streams: streams, presence: presence,
            metrics: metrics, commits: store.capabilities.commitReporting, logger: logger,
            ready: { readiness.isReady && storeReachable.isReady }
        ).build()
        openAPIDocument = document
        let spans = (configuration.tracer ?? Self.bootstrappedTracer).map(RequestSpans.init)
        let responder = TimedResponder(next: router, spans: spans)
        server = HTTPServer(configuration: configuration.server, responder: responder, logger: logger) { request in
            metrics.request(route: request.route, method: request.method, status: request.status, duration: request.duration)
        }
    }

    /// The tracer the application bootstrapped (`InstrumentationSystem.bootstrap`), or nil.
    private static var bootstrappedTracer: (any Tracer)? {
        let tracer = InstrumentationSystem.tracer
        return tracer is NoOpTracer ? nil : tracer
    }

    /// The port the server listens on (useful after starting on port 0).
    public var port: Int { server.port }

    /// Opens the shared models over the store, starts listening and the background work; returns
    /// the bound port. ``shutdown()`` stops it all.
    @discardableResult
    public func start() async throws -> Int {
        try await start(gracefulShutdownSignals: [])
    }

    /// Starts (see ``start()``) and serves until SIGINT or SIGTERM, then shuts down gracefully:
    /// the HTTP server first, then the background work, the store last.
    public func run() async throws {
        try await start(gracefulShutdownSignals: [.sigterm, .sigint])
        try await running.withLock { $0?.task }?.value
    }

    /// Stops cleanly, in an order where nothing is refused before `/readyz` says so and no
    /// request is left without an answer:
    /// 1. `/readyz` answers 503 from now on;
    /// 2. the server stops accepting, ends every event stream, lets running requests finish for
    ///    up to two seconds and answers the rest 503 with `Retry-After`;
    /// 3. the sessions end; deferred commands still running are recorded as interrupted in the
    ///    store, so a restart or another node shows them so;
    /// 4. the background work stops;
    /// 5. the store finishes its writes and closes.
    public func shutdown() async {
        guard let (group, task) = running.withLock({ $0 }) else { return }
        await group.triggerGracefulShutdown()
        _ = try? await task.value
    }

    @discardableResult
    private func start(gracefulShutdownSignals signals: [UnixSignal]) async throws -> Int {
        if app.users == nil, let screen = app.screens.first(where: { $0.schema.declaresSignIn }) {
            throw BinderyServerError.signInWithoutUsers(screen: screen.name)
        }
        try await checkStoredState()
        let shared = app.sharedModels.filter { $0.connection.perUser == nil }
        // Every node holds the shared models' records: their writes are announced to every node.
        if !shared.isEmpty { try await sessions.held.acquire(StoreRecordStorage.session) }
        for model in shared {
            let storage = try await StoreRecordStorage.open(store: store, model: model.name)
            try await model.connection.open(storage)
        }
        try server.start()
        readiness.set(true)
        let group = ServiceGroup(
            configuration: ServiceGroupConfiguration(
                services: services(), gracefulShutdownSignals: signals, logger: logger
            )
        )
        let task = Task { try await group.run() }
        running.withLock { $0 = (group, task) }
        logger.info("Bindery listening", metadata: ["http.port": "\(server.port)"])
        return server.port
    }

    /// The services, in start order; a graceful shutdown ends them in reverse: the HTTP server
    /// first, then the background loops together, the store last.
    private func services() -> [ServiceGroupConfiguration.ServiceConfiguration] {
        var loops: [LoopService.Loop] = [
            LoopService.Loop(name: "heartbeats") { [streams, clock] in await streams.runHeartbeats(clock: clock) },
            LoopService.Loop(name: "session sweep") { [sessions, clock, configuration] in
                while !Task.isCancelled {
                    do { try await clock.sleep(for: configuration.sweepInterval) } catch { return }
                    await sessions.sweep()
                }
            },
            LoopService.Loop(name: "presence sweep") { [presence, clock] in
                while !Task.isCancelled {
                    do { try await clock.sleep(for: PresenceBoard.sweepInterval) } catch { return }
                    presence.board.sweep(now: Date())
                }
            },
            LoopService.Loop(name: "store probe") { [store, clock, storeReachable, metrics] in
                let probe = StoreProbe(store: store, clock: clock, timeout: .seconds(2))
                while !Task.isCancelled {
                    let reachable = await probe.isReachable()
                    storeReachable.set(reachable)
                    metrics.storeReachable(reachable)
                    do { try await clock.sleep(for: .seconds(2)) } catch { return }
                }
            },
        ]
        if let feed = store.capabilities.changeFeed {
            let follower = ChangeFollower(feed: feed, sessions: sessions, metrics: metrics, presence: presence)
            let models = SharedModelFollower(feed: feed, models: app.sharedModels, spaces: sessions.spaces)
            let keeper = CommandLeaseKeeper(feed: feed, sessions: sessions, lease: configuration.commandLease, clock: clock)
            loops += [
                LoopService.Loop(name: "change follower") { await follower.run() },
                LoopService.Loop(name: "shared model follower") { await models.run() },
                LoopService.Loop(name: "command leases") { await keeper.run() },
            ]
        }
        return [
            .init(service: StoreService(store: store, logger: logger)),
            .init(service: LoopService(loops: loops), successTerminationBehavior: .ignore),
            .init(service: HTTPService(server: self)),
        ]
    }

    /// Steps 1 to 3 of ``shutdown()``: readiness down, the HTTP server stopped, the sessions ended
    /// and their running commands recorded as interrupted.
    fileprivate func stopServing() async {
        readiness.set(false)
        await server.shutdown()
        await recordInterrupted(await sessions.shutDownAll())
    }

    /// Records the deferred commands this process was running at shutdown as interrupted. On a
    /// shared store (several nodes) it gives up their leases, so the other nodes show them
    /// interrupted at their next lease check instead of a whole lease later; on an embedded
    /// store every running command is this process's, and all are marked.
    private func recordInterrupted(_ running: [ViewModelKey: String]) async {
        guard !running.isEmpty else { return }
        do {
            if let feed = store.capabilities.changeFeed {
                try await feed.releaseCommandLeases(running)
            } else {
                _ = try await store.markRunningCommandsInterrupted()
            }
            logger.info("Recorded running commands as interrupted", metadata: ["commands": "\(running.count)"])
        } catch {
            logger.error("Could not record the running commands as interrupted: \(error)")
        }
    }
}

/// The HTTP server as a service: it listens from ``BinderyServer/start()`` on; a graceful shutdown
/// stops it (``BinderyServer/stopServing()``) before the other services end.
private struct HTTPService: Service {
    let server: BinderyServer

    func run() async throws {
        try? await gracefulShutdown()
        await server.stopServing()
    }
}

/// Why a server would not start.
public enum BinderyServerError: Error, CustomStringConvertible {
    /// A screen declares a sign-in command, but the app has no `Users` to check credentials.
    case signInWithoutUsers(screen: String)

    /// One line that says what to change.
    public var description: String {
        switch self {
        case .signInWithoutUsers(let screen):
            "The screen '\(screen)' declares a sign-in command, but the app has no users: pass BinderyApp(…, users: Users { … })."
        }
    }
}
