import Bindery
import BinderyStore
import BinderyTestSupport
import BinderyUpstream
import Logging
import SeedApps
import Tracing

/// A real Bindery server on an ephemeral loopback port, for one test.
struct TestServer {
    let application: BinderyServer
    let port: Int

    /// Makes the app a test server serves.
    typealias AppFactory = @Sendable (AppContext) -> BinderyApp

    /// Starts a server of the seed apps — with fast upstream settings and the first-start recipes
    /// unless the test gives its own — or of the test's own `app`.
    static func start(
        upstream: UpstreamSettings = .fast,
        sessions: SessionLimits = SessionLimits(),
        streams: StreamLimits = StreamLimits(),
        maxBodyBytes: Int = 64 * 1024,
        clock: any Clock<Duration> = ContinuousClock(),
        store: any SessionStateStore = MemoryStore(),
        recipes: [Recipe] = FirstStartRecipes.all,
        app: AppFactory? = nil,
        trustForwardedFor: Bool = false,
        secureCookies: Bool = false,
        tracer: (any Tracer)? = nil
    ) async throws -> TestServer {
        var logger = Logger(label: "bindery-test")
        logger.logLevel = .error
        var configuration = BinderyConfiguration(
            server: ServerConfiguration(host: "127.0.0.1", port: 0, maxBodyBytes: maxBodyBytes),
            servesClient: false,
            sessions: sessions,
            streams: streams,
            trustForwardedFor: trustForwardedFor,
            secureCookies: secureCookies
        )
        configuration.tracer = tracer
        let build =
            app ?? { context in
                SeedApps(upstream: upstream, recipes: .recipes(firstStart: recipes), context: context).app
            }
        let application = BinderyServer(configuration: configuration, logger: logger, store: store, clock: clock, app: build)
        let port = try await application.start()
        return TestServer(application: application, port: port)
    }

    /// A client for this server with a new session (bearer token).
    func newSession() async throws -> HTTPTestClient {
        let anonymous = HTTPTestClient(port: port)
        let created = try await anonymous.request("POST", "/api/sessions")
        guard created.status == 201, let token = created.json["token"]?.stringValue else {
            throw TestFailure("POST /api/sessions answered \(created.status)")
        }
        return HTTPTestClient(port: port, token: token)
    }

    /// A client without a session.
    func anonymousClient() -> HTTPTestClient { HTTPTestClient(port: port) }

    /// A client with a new session signed in as `account` (`POST /api/session/sign-in`), for the
    /// requests the seed apps refuse anonymous sessions: editing recipes, changing the upstream.
    func signedInSession(as account: DemoAccount = .lilei) async throws -> HTTPTestClient {
        let session = try await newSession()
        let answer = try await session.request(
            "POST", "/api/session/sign-in", body: #"{"username": "\#(account.phone)", "password": "\#(account.password)"}"#
        )
        guard answer.status == 200, let token = answer.json["token"]?.stringValue else {
            throw TestFailure("signing in as \(account.name) answered \(answer.status): \(answer.text)")
        }
        return HTTPTestClient(port: port, token: token)
    }

    /// Runs `body` with a started server and always shuts it down.
    static func with<T>(
        upstream: UpstreamSettings = .fast,
        sessions: SessionLimits = SessionLimits(),
        streams: StreamLimits = StreamLimits(),
        clock: any Clock<Duration> = ContinuousClock(),
        store: any SessionStateStore = MemoryStore(),
        recipes: [Recipe] = FirstStartRecipes.all,
        app: AppFactory? = nil,
        trustForwardedFor: Bool = false,
        secureCookies: Bool = false,
        tracer: (any Tracer)? = nil,
        _ body: (TestServer) async throws -> T
    ) async throws -> T {
        let server = try await start(
            upstream: upstream, sessions: sessions, streams: streams, clock: clock, store: store, recipes: recipes,
            app: app, trustForwardedFor: trustForwardedFor, secureCookies: secureCookies, tracer: tracer
        )
        do {
            let result = try await body(server)
            await server.application.shutdown()
            return result
        } catch {
            await server.application.shutdown()
            throw error
        }
    }
}

extension UpstreamSettings {
    /// The seed's endpoints with 20 ms latency and no random failures: fast, deterministic tests.
    /// Every endpoint, `accounts` included: a sign-in (``TestServer/signedInSession(as:)``) is fast too.
    static var fast: UpstreamSettings {
        var settings = UpstreamSettings.seedDefaults
        for endpoint in UpstreamEndpoint.allCases {
            settings.endpoints[endpoint]?.latencyMs = 20
            settings.endpoints[endpoint]?.failureRate = 0
        }
        return settings
    }
}

/// A test precondition that did not hold.
struct TestFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
