import BinderyHTTP
import BinderyStore
import Tracing

/// Everything a Bindery server is configured with; the defaults are the embedded local mode.
/// `ServeOptions` reads one from the command line and `BINDERY_*` variables.
public struct BinderyConfiguration: Sendable {
    /// Address, workers and connection limits of the HTTP server.
    public var server: ServerConfiguration
    /// Where sessions and shared models last: a SQLite file (the default), memory, or PostgreSQL
    /// for several nodes.
    public var store: StoreLocation
    /// The app's own static files, layered over the thin client (``clientDirectory``): its screens'
    /// templates (`screens/<name>.html`) and anything that overrides the client's files. Nil: none.
    public var publicDirectory: String?
    /// The thin client served at `/` (Bindery's `Sources/BinderyBrowserClient/Client`): found next
    /// to the executable or in Bindery's sources when nil. ``publicDirectory`` is layered over it.
    public var clientDirectory: String?
    /// Whether to serve the thin client and the pages at all (`/`, `/<screen>`); the API is
    /// served either way.
    public var servesClient: Bool
    /// Session lifetime and count.
    public var sessions: SessionLimits
    /// Event-stream bounds and heartbeat.
    public var streams: StreamLimits
    /// How long a long-poll waits when the client does not send `Prefer: wait=N`.
    public var longPollWait: Duration
    /// How often idle sessions are swept away.
    public var sweepInterval: Duration
    /// Whether a proxy in front (nginx) says who the client is in `X-Forwarded-For`: the
    /// per-address session limits then count that address instead of the proxy's.
    public var trustForwardedFor: Bool
    /// Whether the session cookie is always `Secure`: the server is reached over TLS only (behind
    /// a TLS proxy). Behind a trusted proxy (``trustForwardedFor``) it is also `Secure` whenever
    /// the proxy says `X-Forwarded-Proto: https`.
    public var secureCookies: Bool
    /// On a shared store (several nodes), how long a deferred command stays shown as running
    /// after its node last renewed its lease on it; the node renews it every third of this.
    public var commandLease: Duration
    /// What the values of sensitive inputs (a password) are sealed with in the store: nodes sharing
    /// a store share it. Nil: a key of the process's own (such values then last only as long as
    /// it does).
    public var sealingKey: SealingKey?
    /// What start-up does with stored state the app's declarations cannot read (no migration for
    /// a changed shape): refuse to start (the default), or set it aside and serve.
    public var unreadableStoredState: UnreadableStoredState = .refuseToStart
    /// The tracer a request's spans go to (tests inject one); nil: the one bootstrapped with
    /// `InstrumentationSystem.bootstrap`, if any, else no spans at all.
    package var tracer: (any Tracer)?

    /// Creates a configuration; every argument has the local-mode default.
    public init(
        server: ServerConfiguration = ServerConfiguration(),
        store: StoreLocation = .default,
        publicDirectory: String? = "Public",
        clientDirectory: String? = nil,
        servesClient: Bool = true,
        sessions: SessionLimits = SessionLimits(),
        streams: StreamLimits = StreamLimits(),
        longPollWait: Duration = .seconds(30),
        sweepInterval: Duration = .seconds(60),
        trustForwardedFor: Bool = false,
        secureCookies: Bool = false,
        commandLease: Duration = .seconds(15),
        sealingKey: SealingKey? = nil
    ) {
        self.sealingKey = sealingKey
        self.server = server
        self.store = store
        self.publicDirectory = publicDirectory
        self.clientDirectory = clientDirectory
        self.servesClient = servesClient
        self.sessions = sessions
        self.streams = streams
        self.longPollWait = longPollWait
        self.sweepInterval = sweepInterval
        self.trustForwardedFor = trustForwardedFor
        self.secureCookies = secureCookies
        self.commandLease = commandLease
    }
}
