import BinderyHTTP
import BinderyUpstream

/// Everything a Bindery server is configured with; the defaults are the embedded local mode.
public struct BinderyConfiguration: Sendable {
    /// Address, workers and connection limits of the HTTP server.
    public var server: ServerConfiguration
    /// The directory served at `/` (the thin client); nil serves no static files.
    public var publicDirectory: String?
    /// Session lifetime and count.
    public var sessions: SessionLimits
    /// Event-stream bounds and heartbeat.
    public var streams: StreamLimits
    /// The fake upstream's starting settings (latency, failure rates, seed).
    public var upstream: UpstreamSettings
    /// Whether `/api/upstream` may be used to read and change the upstream settings at run time.
    public var upstreamControl: Bool
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

    /// Creates a configuration; every argument has the local-mode default.
    public init(
        server: ServerConfiguration = ServerConfiguration(),
        publicDirectory: String? = "Public",
        sessions: SessionLimits = SessionLimits(),
        streams: StreamLimits = StreamLimits(),
        upstream: UpstreamSettings = .seedDefaults,
        upstreamControl: Bool = true,
        longPollWait: Duration = .seconds(30),
        sweepInterval: Duration = .seconds(60),
        trustForwardedFor: Bool = false,
        secureCookies: Bool = false,
        commandLease: Duration = .seconds(15)
    ) {
        self.server = server
        self.publicDirectory = publicDirectory
        self.sessions = sessions
        self.streams = streams
        self.upstream = upstream
        self.upstreamControl = upstreamControl
        self.longPollWait = longPollWait
        self.sweepInterval = sweepInterval
        self.trustForwardedFor = trustForwardedFor
        self.secureCookies = secureCookies
        self.commandLease = commandLease
    }
}
