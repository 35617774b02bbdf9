import ArgumentParser
import BinderyBinding
import BinderyHTTP
import BinderyStore
import Foundation
import Logging

/// The command-line options of a Bindery server — `--host`, `--port`, `--store`, limits,
/// timeouts, logging — each falling back to a `BINDERY_*` environment variable (BINDERY_ and the
/// option in upper case with dashes as underscores: `BINDERY_PORT=9000`). A flag on the command
/// line wins over the environment.
///
/// ``BinderyBinding/BinderyApp/main()`` reads them for you; a command of your own takes them whole and adds its
/// own:
///
/// ```swift
/// struct Serve: AsyncParsableCommand {
///     @OptionGroup var options: ServeOptions
///     @Option var greeting = "Hello"
///
///     func run() async throws {
///         try await options.serve { context in BinderyApp(screens: [/* … */]) }
///     }
/// }
/// ```
public struct ServeOptions: ParsableArguments {
    /// Options read from the command line (`@OptionGroup`) or the environment alone.
    public init() {}

    @Option(help: "Address to listen on (BINDERY_HOST).")
    var host: String = OptionEnvironment.string("BINDERY_HOST") ?? "127.0.0.1"

    @Option(help: "Port to listen on; 0 picks a free one (BINDERY_PORT).")
    var port: Int = OptionEnvironment.int("BINDERY_PORT") ?? 8080

    @Option(
        help: "Where sessions last: sqlite:PATH (created on first start), memory, or postgres://user@host:port/db for several nodes (BINDERY_STORE).")
    var store: String = OptionEnvironment.string("BINDERY_STORE") ?? StoreLocation.default.description

    @Option(
        help:
            "The app's own static files, layered over the thin client: screens/<name>.html templates and files that override the client's; empty for none (BINDERY_PUBLIC_DIR)."
    )
    var publicDir: String = OptionEnvironment.string("BINDERY_PUBLIC_DIR") ?? "Public"

    @Option(help: "The thin client's files; empty: Bindery's own, found next to the executable or in its sources (BINDERY_CLIENT_DIR).")
    var clientDir: String = OptionEnvironment.string("BINDERY_CLIENT_DIR") ?? ""

    @Flag(help: "Serve the API only: no thin client, no pages (BINDERY_NO_CLIENT=1).")
    var noClient: Bool = OptionEnvironment.flag("BINDERY_NO_CLIENT")

    @Option(help: "Listener threads, each an epoll event loop sharing the port (BINDERY_WORKERS).")
    var workers: Int = OptionEnvironment.int("BINDERY_WORKERS") ?? 2

    @Option(help: "Largest accepted request body in bytes; larger ones get 413 (BINDERY_MAX_BODY_BYTES).")
    var maxBodyBytes: Int = OptionEnvironment.int("BINDERY_MAX_BODY_BYTES") ?? 1 << 20

    @Option(
        help:
            "Open connections allowed in total; beyond it an idle connection makes room for a request, else 503 (BINDERY_MAX_CONNECTIONS; lowered to what ulimit -n allows)."
    )
    var maxConnections: Int = OptionEnvironment.int("BINDERY_MAX_CONNECTIONS") ?? Self.defaultMaxConnections

    /// `--max-connections` when neither the option nor `BINDERY_MAX_CONNECTIONS` says otherwise.
    static let defaultMaxConnections = 8192

    @Option(help: "Open connections allowed per client address (BINDERY_MAX_CONNECTIONS_PER_IP).")
    var maxConnectionsPerIp: Int = OptionEnvironment.int("BINDERY_MAX_CONNECTIONS_PER_IP") ?? 256

    @Option(help: "Seconds an idle connection is kept (BINDERY_CONNECTION_TIMEOUT).")
    var connectionTimeout: Int = OptionEnvironment.int("BINDERY_CONNECTION_TIMEOUT") ?? 30

    @Option(
        help:
            "Seconds a connection has to send a complete request head, from its opening or previous answer, however slowly; 0: no deadline (BINDERY_REQUEST_HEAD_TIMEOUT)."
    )
    var requestHeadTimeout: Int = OptionEnvironment.int("BINDERY_REQUEST_HEAD_TIMEOUT") ?? 30

    @Option(help: "Seconds an unused session lives (BINDERY_SESSION_IDLE_TIMEOUT).")
    var sessionIdleTimeout: Int = OptionEnvironment.int("BINDERY_SESSION_IDLE_TIMEOUT") ?? 1800

    @Option(
        help:
            "Seconds after which a quiet session (no event stream, nothing running) leaves memory; it stays in the store and its next request restores it; 0: never (BINDERY_SESSION_HIBERNATE_AFTER)."
    )
    var sessionHibernateAfter: Int = OptionEnvironment.int("BINDERY_SESSION_HIBERNATE_AFTER") ?? 300

    @Option(
        help:
            "Seconds the answer to a request with an Idempotency-Key is kept for its retries, while its session lives (BINDERY_IDEMPOTENCY_KEY_LIFETIME)."
    )
    var idempotencyKeyLifetime: Int = OptionEnvironment.int("BINDERY_IDEMPOTENCY_KEY_LIFETIME") ?? 86_400

    @Option(help: "Seconds between session sweeps: idle expiry, hibernation, last use and the store's trim (BINDERY_SESSION_SWEEP_INTERVAL).")
    var sessionSweepInterval: Int = OptionEnvironment.int("BINDERY_SESSION_SWEEP_INTERVAL") ?? 60

    @Option(help: "Live sessions at most; the least recently used is closed first (BINDERY_MAX_SESSIONS).")
    var maxSessions: Int = OptionEnvironment.int("BINDERY_MAX_SESSIONS") ?? 10_000

    @Option(help: "Event streams one session may hold open (BINDERY_MAX_STREAMS_PER_SESSION).")
    var maxStreamsPerSession: Int = OptionEnvironment.int("BINDERY_MAX_STREAMS_PER_SESSION") ?? 16

    @Option(help: "Event streams the server may hold open (BINDERY_MAX_STREAMS).")
    var maxStreams: Int = OptionEnvironment.int("BINDERY_MAX_STREAMS") ?? 1000

    @Option(help: "Seconds between heartbeat comments on idle event streams (BINDERY_HEARTBEAT).")
    var heartbeat: Int = OptionEnvironment.int("BINDERY_HEARTBEAT") ?? 15

    @Flag(help: "Count clients by the address a proxy in front puts last in X-Forwarded-For (BINDERY_TRUST_FORWARDED_FOR=1).")
    var trustForwardedFor: Bool = OptionEnvironment.flag("BINDERY_TRUST_FORWARDED_FOR")

    @Flag(
        help:
            "Mark the session cookie Secure: clients reach the server over TLS only, through a TLS proxy (BINDERY_SECURE_COOKIES=1). Behind a trusted proxy it is Secure anyway when X-Forwarded-Proto is https."
    )
    var secureCookies: Bool = OptionEnvironment.flag("BINDERY_SECURE_COOKIES")

    @Option(help: "Live sessions one client address may hold; one more closes its own oldest (BINDERY_MAX_SESSIONS_PER_ADDRESS).")
    var maxSessionsPerAddress: Int = OptionEnvironment.int("BINDERY_MAX_SESSIONS_PER_ADDRESS") ?? 500

    @Option(help: "Sessions one client address may create at once; then 20 a second (BINDERY_SESSION_CREATION_BURST).")
    var sessionCreationBurst: Int = OptionEnvironment.int("BINDERY_SESSION_CREATION_BURST") ?? 1000

    @Option(help: "With several nodes: seconds a command stays running after its node stops renewing its lease (BINDERY_COMMAND_LEASE).")
    var commandLease: Int = OptionEnvironment.int("BINDERY_COMMAND_LEASE") ?? 15

    @Option(
        help:
            "64 hex digits: the key sensitive inputs (a password) are sealed with in the store; nodes sharing a store need the same; empty: one of the process's own, so such values last as long as it does (BINDERY_SEALING_KEY)."
    )
    var sealingKey: String = OptionEnvironment.string("BINDERY_SEALING_KEY") ?? ""

    @Flag(
        help:
            "Start even when stored state cannot be read by this build's declarations (a changed shape with no migration): set it aside, byte for byte, counted in /metrics, put back by a later start that reads it (BINDERY_SET_ASIDE_UNREADABLE_STATE=1). Without it such a start stops with one line per view model or collection."
    )
    var setAsideUnreadableState: Bool = OptionEnvironment.flag("BINDERY_SET_ASIDE_UNREADABLE_STATE")

    /// The log level ``serve(app:)`` logs at (`--log-level`, `BINDERY_LOG_LEVEL`; info by default).
    @Option(help: "Log level: trace, debug, info, notice, warning, error, critical (BINDERY_LOG_LEVEL).")
    public var logLevel: LogLevelOption = OptionEnvironment.string("BINDERY_LOG_LEVEL").flatMap(LogLevelOption.init(argument:)) ?? .init(.info)

    /// The store the options name, parsed (not opened).
    func storeLocation() throws -> StoreLocation {
        do {
            return try StoreLocation(parsing: store)
        } catch {
            throw ValidationError("--store: \(error)")
        }
    }

    /// The server configuration these options describe.
    public func configuration() throws -> BinderyConfiguration {
        guard (0...65_535).contains(port) else { throw ValidationError("--port must be in 0...65535.") }
        guard (3...3600).contains(commandLease) else { throw ValidationError("--command-lease must be in 3...3600.") }
        guard sessionHibernateAfter >= 0 else { throw ValidationError("--session-hibernate-after must be 0 or more.") }
        guard (1...3600).contains(sessionSweepInterval) else {
            throw ValidationError("--session-sweep-interval must be in 1...3600.")
        }
        let sealing = SealingKey(hex: sealingKey.lowercased())
        guard sealingKey.isEmpty || sealing != nil else { throw ValidationError("--sealing-key must be 64 hex digits.") }
        var configuration = BinderyConfiguration(
            server: ServerConfiguration(
                host: host, port: port, workers: max(1, workers), maxBodyBytes: maxBodyBytes,
                connectionLimit: maxConnections, perIPConnectionLimit: maxConnectionsPerIp,
                connectionTimeoutSeconds: connectionTimeout, requestHeadTimeoutSeconds: requestHeadTimeout
            ),
            store: try storeLocation(),
            publicDirectory: publicDir.isEmpty ? nil : publicDir,
            clientDirectory: clientDir.isEmpty ? nil : clientDir,
            servesClient: !noClient,
            sessions: SessionLimits(
                idleTimeout: .seconds(sessionIdleTimeout), maxSessions: maxSessions, perAddress: maxSessionsPerAddress,
                creationBurst: sessionCreationBurst,
                hibernateAfter: sessionHibernateAfter > 0 ? .seconds(sessionHibernateAfter) : nil,
                idempotencyKeyLifetime: .seconds(idempotencyKeyLifetime)
            ),
            streams: StreamLimits(perSession: maxStreamsPerSession, total: maxStreams, heartbeat: .seconds(max(1, heartbeat))),
            sweepInterval: .seconds(sessionSweepInterval),
            trustForwardedFor: trustForwardedFor,
            secureCookies: secureCookies,
            commandLease: .seconds(commandLease),
            sealingKey: sealing
        )
        configuration.unreadableStoredState = setAsideUnreadableState ? .setAside : .refuseToStart
        return configuration
    }

    /// Whether these options listen on loopback only (only this machine can connect).
    public var listensOnLoopback: Bool { Self.isLoopback(host) }

    /// Whether `host` is a loopback address (only this machine can connect).
    static func isLoopback(_ host: String) -> Bool {
        host == "localhost" || host == "::1" || host.hasPrefix("127.")
    }
}
