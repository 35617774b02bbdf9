/// Listening address, concurrency and protective limits of an `HTTPServer`.
public struct ServerConfiguration: Sendable {
    /// Numeric IPv4 or IPv6 address to bind. Default `127.0.0.1`.
    public var host: String
    /// Port to bind; `0` asks the kernel for an ephemeral port (read it back from `HTTPServer.port`).
    public var port: Int
    /// Number of single-threaded epoll daemons sharing the port (SO_REUSEPORT). Default 2.
    public var workers: Int
    /// Largest accepted request body; larger bodies are answered with 413. Default 1 MiB.
    public var maxBodyBytes: Int
    /// Memory pool per connection; headers that do not fit are answered 431 by libmicrohttpd.
    /// Default 16 KiB (Node.js's header limit): every open connection, an idle event stream too,
    /// holds one, and libmicrohttpd zeroes it after every request.
    public var connectionMemoryLimit: Int
    /// Total number of connections over all workers. Default 1024. Beyond it, a connection that
    /// only waits for a request head yields to a request; with none idle, the request gets 503.
    public var connectionLimit: Int
    /// Connections from one client address over all workers. Default 256.
    public var perIPConnectionLimit: Int
    /// Seconds of inactivity after which a connection is closed. Default 30.
    public var connectionTimeoutSeconds: Int
    /// Seconds a connection has to deliver a complete request head, counted from its opening or
    /// from the answer to its previous request, however slowly it sends; 0 turns the deadline
    /// off. Default 30.
    public var requestHeadTimeoutSeconds: Int
    /// When true (default), POST/PUT/PATCH with a non-empty body must carry a JSON content type
    /// (`application/json`, `application/merge-patch+json` or any `+json`), else 415.
    public var requireJSONBodies: Bool

    /// Creates a configuration; every parameter has the documented default.
    public init(
        host: String = "127.0.0.1",
        port: Int = 8080,
        workers: Int = 2,
        maxBodyBytes: Int = 1 << 20,
        connectionMemoryLimit: Int = 16 * 1024,
        connectionLimit: Int = 1024,
        perIPConnectionLimit: Int = 256,
        connectionTimeoutSeconds: Int = 30,
        requestHeadTimeoutSeconds: Int = 30,
        requireJSONBodies: Bool = true
    ) {
        self.host = host
        self.port = port
        self.workers = workers
        self.maxBodyBytes = maxBodyBytes
        self.connectionMemoryLimit = connectionMemoryLimit
        self.connectionLimit = connectionLimit
        self.perIPConnectionLimit = perIPConnectionLimit
        self.connectionTimeoutSeconds = connectionTimeoutSeconds
        self.requestHeadTimeoutSeconds = requestHeadTimeoutSeconds
        self.requireJSONBodies = requireJSONBodies
    }
}
