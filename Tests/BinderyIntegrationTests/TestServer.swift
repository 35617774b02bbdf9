import BinderyBinding
import BinderyFeatures
import BinderyHTTP
import BinderyStore
import BinderyUpstream
import Logging

/// A real Bindery server on an ephemeral loopback port, for one test.
struct TestServer {
    let application: BinderyApplication
    let port: Int

    /// Starts a server with fast upstream settings unless the test gives its own.
    static func start(
        upstream: UpstreamSettings = .fast,
        sessions: SessionLimits = SessionLimits(),
        streams: StreamLimits = StreamLimits(),
        maxBodyBytes: Int = 64 * 1024,
        clock: any Clock<Duration> = ContinuousClock(),
        store: any SessionStateStore = MemoryStore(),
        recipes: RecipeBook? = nil,
        screens: BinderyApplication.ScreenFactory? = nil,
        trustForwardedFor: Bool = false,
        secureCookies: Bool = false
    ) throws -> TestServer {
        var logger = Logger(label: "bindery-test")
        logger.logLevel = .error
        let configuration = BinderyConfiguration(
            server: ServerConfiguration(host: "127.0.0.1", port: 0, maxBodyBytes: maxBodyBytes),
            publicDirectory: nil,
            sessions: sessions,
            streams: streams,
            upstream: upstream,
            trustForwardedFor: trustForwardedFor,
            secureCookies: secureCookies
        )
        let application = BinderyApplication(
            configuration: configuration, logger: logger, store: store, clock: clock, recipes: recipes, screens: screens
        )
        let port = try application.start()
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

    /// Runs `body` with a started server and always shuts it down.
    static func with<T>(
        upstream: UpstreamSettings = .fast,
        sessions: SessionLimits = SessionLimits(),
        streams: StreamLimits = StreamLimits(),
        clock: any Clock<Duration> = ContinuousClock(),
        store: any SessionStateStore = MemoryStore(),
        recipes: RecipeBook? = nil,
        screens: BinderyApplication.ScreenFactory? = nil,
        trustForwardedFor: Bool = false,
        secureCookies: Bool = false,
        _ body: (TestServer) async throws -> T
    ) async throws -> T {
        let server = try start(
            upstream: upstream, sessions: sessions, streams: streams, clock: clock, store: store, recipes: recipes,
            screens: screens, trustForwardedFor: trustForwardedFor, secureCookies: secureCookies
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
