import Bindery
import BinderyClient
import BinderyStore
import BinderyTestSupport
import BinderyUpstream
import Foundation
import Logging
import SeedApps

/// A real server of the seed apps on an ephemeral loopback port, in this process, for one test.
struct ClientTestServer {
    let server: BinderyServer
    let url: URL

    /// Runs `body` with a started server (upstream latency `latencyMs`, no failures); always stops it.
    static func with<T>(latencyMs: Int = 20, _ body: (ClientTestServer) async throws -> T) async throws -> T {
        var logger = Logger(label: "bindery-client-test")
        logger.logLevel = .error
        let upstream = UpstreamSettings(
            seed: 42, endpoints: Dictionary(uniqueKeysWithValues: UpstreamEndpoint.allCases.map { ($0, EndpointSettings(latencyMs: latencyMs)) })
        )
        let configuration = BinderyConfiguration(server: ServerConfiguration(host: "127.0.0.1", port: 0), servesClient: false)
        let server = BinderyServer(configuration: configuration, logger: logger, store: MemoryStore()) { context in
            SeedApps(upstream: upstream, context: context).app
        }
        let port = try await server.start()
        let running = ClientTestServer(server: server, url: URL(string: "http://127.0.0.1:\(port)")!)
        do {
            let result = try await body(running)
            await server.shutdown()
            return result
        } catch {
            await server.shutdown()
            throw error
        }
    }

    /// A new session on this server, through the client.
    func newSession() async throws -> BinderySession {
        try await BinderySession.create(at: url)
    }

    /// A new session signed in as `account`, for what the seed apps refuse anonymous sessions
    /// (editing recipes).
    func signedInSession(as account: DemoAccount = .lilei) async throws -> BinderySession {
        let session = try await newSession()
        try await session.signIn(username: account.phone, password: account.password)
        return session
    }
}

/// Runs `body`, failing with `TimedOut` when it takes longer than `limit` (a hang fails the test
/// instead of stopping the suite; nothing sleeps on success). The limit is only a guard against
/// hangs: a clean-clone CI run on two busy cores took 10 s for tests that take 0.1 s alone.
@MainActor
func within<T: Sendable>(_ limit: Duration = .seconds(60), _ body: @MainActor @escaping () async throws -> T) async throws -> T {
    try await withThrowingTaskGroup(of: T.self) { group in
        group.addTask { try await body() }
        group.addTask {
            try await Task.sleep(for: limit)
            throw TimedOut()
        }
        defer { group.cancelAll() }
        return try await group.next()!
    }
}

/// A test's step that did not finish in time.
struct TimedOut: Error {}
