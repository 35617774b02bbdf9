import ArgumentParser
import BinderyBinding
import BinderyHTTP
import BinderyStore
import BinderyUpstream
import Foundation
import Logging

/// The command-line options of `bindery`; each falls back to a `BINDERY_*` environment variable.
struct ServeOptions: ParsableArguments {
    @Option(help: "Address to listen on (BINDERY_HOST).")
    var host: String = Environment.string("BINDERY_HOST") ?? "127.0.0.1"

    @Option(help: "Port to listen on; 0 picks a free one (BINDERY_PORT).")
    var port: Int = Environment.int("BINDERY_PORT") ?? 8080

    @Option(help: "Where sessions last: sqlite:PATH (created on first start), memory, or postgres://user@host:port/db for several nodes (BINDERY_STORE).")
    var store: String = Environment.string("BINDERY_STORE") ?? StoreLocation.default.description

    @Option(help: "Directory of the thin client served at / (BINDERY_PUBLIC_DIR).")
    var publicDir: String = Environment.string("BINDERY_PUBLIC_DIR") ?? "Public"

    @Option(help: "Listener threads, each an epoll event loop sharing the port (BINDERY_WORKERS).")
    var workers: Int = Environment.int("BINDERY_WORKERS") ?? 2

    @Option(help: "Largest accepted request body in bytes; larger ones get 413 (BINDERY_MAX_BODY_BYTES).")
    var maxBodyBytes: Int = Environment.int("BINDERY_MAX_BODY_BYTES") ?? 1 << 20

    @Option(help: "Open connections allowed in total; beyond it an idle connection makes room for a request, else 503 (BINDERY_MAX_CONNECTIONS; lowered to what ulimit -n allows).")
    var maxConnections: Int = Environment.int("BINDERY_MAX_CONNECTIONS") ?? 8192

    @Option(help: "Open connections allowed per client address (BINDERY_MAX_CONNECTIONS_PER_IP).")
    var maxConnectionsPerIp: Int = Environment.int("BINDERY_MAX_CONNECTIONS_PER_IP") ?? 256

    @Option(help: "Seconds an idle connection is kept (BINDERY_CONNECTION_TIMEOUT).")
    var connectionTimeout: Int = Environment.int("BINDERY_CONNECTION_TIMEOUT") ?? 30

    @Option(help: "Seconds a connection has to send a complete request head, from its opening or previous answer, however slowly; 0: no deadline (BINDERY_REQUEST_HEAD_TIMEOUT).")
    var requestHeadTimeout: Int = Environment.int("BINDERY_REQUEST_HEAD_TIMEOUT") ?? 30

    @Option(help: "Seconds an unused session lives (BINDERY_SESSION_IDLE_TIMEOUT).")
    var sessionIdleTimeout: Int = Environment.int("BINDERY_SESSION_IDLE_TIMEOUT") ?? 1800

    @Option(help: "Seconds after which a quiet session (no event stream, nothing running) leaves memory; it stays in the store and its next request restores it; 0: never (BINDERY_SESSION_HIBERNATE_AFTER).")
    var sessionHibernateAfter: Int = Environment.int("BINDERY_SESSION_HIBERNATE_AFTER") ?? 300

    @Option(help: "Seconds between session sweeps: idle expiry, hibernation, last use and the store's trim (BINDERY_SESSION_SWEEP_INTERVAL).")
    var sessionSweepInterval: Int = Environment.int("BINDERY_SESSION_SWEEP_INTERVAL") ?? 60

    @Option(help: "Live sessions at most; the least recently used is closed first (BINDERY_MAX_SESSIONS).")
    var maxSessions: Int = Environment.int("BINDERY_MAX_SESSIONS") ?? 10_000

    @Option(help: "Event streams one session may hold open (BINDERY_MAX_STREAMS_PER_SESSION).")
    var maxStreamsPerSession: Int = Environment.int("BINDERY_MAX_STREAMS_PER_SESSION") ?? 16

    @Option(help: "Event streams the server may hold open (BINDERY_MAX_STREAMS).")
    var maxStreams: Int = Environment.int("BINDERY_MAX_STREAMS") ?? 1000

    @Option(help: "Seconds between heartbeat comments on idle event streams (BINDERY_HEARTBEAT).")
    var heartbeat: Int = Environment.int("BINDERY_HEARTBEAT") ?? 15

    @Flag(help: "Count clients by the address a proxy in front puts last in X-Forwarded-For (BINDERY_TRUST_FORWARDED_FOR=1).")
    var trustForwardedFor: Bool = Environment.string("BINDERY_TRUST_FORWARDED_FOR").map { $0 == "1" || $0 == "true" } ?? false

    @Flag(help: "Mark the session cookie Secure: clients reach the server over TLS only, through a TLS proxy (BINDERY_SECURE_COOKIES=1). Behind a trusted proxy it is Secure anyway when X-Forwarded-Proto is https.")
    var secureCookies: Bool = Environment.string("BINDERY_SECURE_COOKIES").map { $0 == "1" || $0 == "true" } ?? false

    @Option(help: "Live sessions one client address may hold; one more closes its own oldest (BINDERY_MAX_SESSIONS_PER_ADDRESS).")
    var maxSessionsPerAddress: Int = Environment.int("BINDERY_MAX_SESSIONS_PER_ADDRESS") ?? 500

    @Option(help: "Sessions one client address may create at once; then 20 a second (BINDERY_SESSION_CREATION_BURST).")
    var sessionCreationBurst: Int = Environment.int("BINDERY_SESSION_CREATION_BURST") ?? 1000

    @Option(help: "With several nodes: seconds a command stays running after its node stops renewing its lease (BINDERY_COMMAND_LEASE).")
    var commandLease: Int = Environment.int("BINDERY_COMMAND_LEASE") ?? 15

    @Option(help: "Seed of the fake upstream's random failures (BINDERY_UPSTREAM_SEED).")
    var upstreamSeed: UInt64 = Environment.uint64("BINDERY_UPSTREAM_SEED") ?? UpstreamSettings.seedDefaults.seed

    @Option(help: "Upstream latency in ms of every endpoint, as in the seed (BINDERY_UPSTREAM_LATENCY_MS).")
    var upstreamLatencyMs: Int = Environment.int("BINDERY_UPSTREAM_LATENCY_MS") ?? Self.seed(.travel).latencyMs

    @Option(help: "Failure rate 0...1 of the travel endpoint, as in the seed (BINDERY_UPSTREAM_TRAVEL_FAILURE_RATE).")
    var upstreamTravelFailureRate: Double =
        Environment.double("BINDERY_UPSTREAM_TRAVEL_FAILURE_RATE") ?? Self.seed(.travel).failureRate

    @Option(help: "Failure rate 0...1 of the hotel endpoint (BINDERY_UPSTREAM_HOTEL_FAILURE_RATE).")
    var upstreamHotelFailureRate: Double =
        Environment.double("BINDERY_UPSTREAM_HOTEL_FAILURE_RATE") ?? Self.seed(.hotel).failureRate

    @Option(help: "Failure rate 0...1 of the photo endpoints (BINDERY_UPSTREAM_PHOTOS_FAILURE_RATE).")
    var upstreamPhotosFailureRate: Double =
        Environment.double("BINDERY_UPSTREAM_PHOTOS_FAILURE_RATE") ?? Self.seed(.photos).failureRate

    @Flag(
        inversion: .prefixedEnableDisable,
        help: "Serve /api/upstream, which lets any client change the upstream for everyone; on by default only when listening on loopback (BINDERY_UPSTREAM_CONTROL=0/1)."
    )
    var upstreamControl: Bool?

    @Option(help: "Log level: trace, debug, info, notice, warning, error, critical (BINDERY_LOG_LEVEL).")
    var logLevel: LogLevelOption = Environment.string("BINDERY_LOG_LEVEL").flatMap(LogLevelOption.init(argument:)) ?? .init(.info)

    /// The seed's settings of one endpoint (the defaults shown in `--help`).
    private static func seed(_ endpoint: UpstreamEndpoint) -> EndpointSettings {
        UpstreamSettings.seedDefaults.endpoint(endpoint)
    }

    /// The application configuration these options describe.
    /// The store the options name, parsed (not opened).
    func storeLocation() throws -> StoreLocation {
        do {
            return try StoreLocation(parsing: store)
        } catch {
            throw ValidationError("--store: \(error)")
        }
    }

    func configuration() throws -> BinderyConfiguration {
        guard (0...65_535).contains(port) else { throw ValidationError("--port must be in 0...65535.") }
        var upstream = UpstreamSettings.seedDefaults
        upstream.seed = upstreamSeed
        guard EndpointSettings.millisecondsRange.contains(upstreamLatencyMs) else {
            throw ValidationError("--upstream-latency-ms must be in 0...60000.")
        }
        for endpoint in UpstreamEndpoint.allCases {
            upstream.endpoints[endpoint]?.latencyMs = upstreamLatencyMs
        }
        let rates: [(UpstreamEndpoint, Double)] = [
            (.travel, upstreamTravelFailureRate), (.hotel, upstreamHotelFailureRate),
            (.photos, upstreamPhotosFailureRate), (.photoDetails, upstreamPhotosFailureRate),
        ]
        for (endpoint, rate) in rates {
            guard (0...1).contains(rate) else { throw ValidationError("Failure rates must be in 0...1.") }
            upstream.endpoints[endpoint]?.failureRate = rate
        }
        guard (3...3600).contains(commandLease) else { throw ValidationError("--command-lease must be in 3...3600.") }
        guard sessionHibernateAfter >= 0 else { throw ValidationError("--session-hibernate-after must be 0 or more.") }
        guard (1...3600).contains(sessionSweepInterval) else {
            throw ValidationError("--session-sweep-interval must be in 1...3600.")
        }
        return BinderyConfiguration(
            server: ServerConfiguration(
                host: host, port: port, workers: max(1, workers), maxBodyBytes: maxBodyBytes,
                connectionLimit: maxConnections, perIPConnectionLimit: maxConnectionsPerIp,
                connectionTimeoutSeconds: connectionTimeout, requestHeadTimeoutSeconds: requestHeadTimeout
            ),
            publicDirectory: publicDir.isEmpty ? nil : publicDir,
            sessions: SessionLimits(
                idleTimeout: .seconds(sessionIdleTimeout), maxSessions: maxSessions, perAddress: maxSessionsPerAddress,
                creationBurst: sessionCreationBurst,
                hibernateAfter: sessionHibernateAfter > 0 ? .seconds(sessionHibernateAfter) : nil
            ),
            streams: StreamLimits(perSession: maxStreamsPerSession, total: maxStreams, heartbeat: .seconds(max(1, heartbeat))),
            upstream: upstream,
            upstreamControl: upstreamControl
                ?? Environment.string("BINDERY_UPSTREAM_CONTROL").map { $0 != "0" && $0 != "false" }
                ?? Self.isLoopback(host),
            sweepInterval: .seconds(sessionSweepInterval),
            trustForwardedFor: trustForwardedFor,
            secureCookies: secureCookies,
            commandLease: .seconds(commandLease)
        )
    }

    /// Whether `host` is a loopback address (only this machine can connect).
    static func isLoopback(_ host: String) -> Bool {
        host == "localhost" || host == "::1" || host.hasPrefix("127.")
    }
}
