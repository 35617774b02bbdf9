/// Why an `HTTPServer` could not start.
public enum HTTPServerError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The host is not a numeric IPv4 or IPv6 address.
    case invalidHost(String)
    /// The configuration is unusable (for example zero workers); the text says why.
    case invalidConfiguration(String)
    /// libmicrohttpd could not start (port in use, no permission, ...); `code` is errno or -1.
    case startFailed(host: String, port: Int, code: Int)
    /// `start()` was called on a server that was already started.
    case alreadyStarted

    /// A one-line explanation.
    public var description: String {
        switch self {
        case .invalidHost(let host):
            return "host '\(host)' is not a numeric IP address"
        case .invalidConfiguration(let reason):
            return "invalid server configuration: \(reason)"
        case .startFailed(let host, let port, let code):
            return "could not listen on \(host):\(port) (error \(code))"
        case .alreadyStarted:
            return "the server was already started"
        }
    }
}
