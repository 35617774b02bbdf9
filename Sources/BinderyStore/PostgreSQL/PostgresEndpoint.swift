import Foundation
import PostgresNIO

/// The parts of a `postgres://user:password@host:port/database` URL, turned into postgres-nio
/// configurations. `?host=/socket/dir` connects through a Unix socket in that directory instead.
/// TLS is not used (loopback or a private network is assumed).
struct PostgresEndpoint: Sendable {
    var host: String
    var port: Int
    var socketDirectory: String?
    var username: String
    var password: String?
    var database: String?

    /// Parses the URL; the error's reason never contains the password.
    init(url: String) throws(StoreError) {
        let hidden = StoreLocation.hidingPassword(in: url)
        guard url.hasPrefix("postgres://") || url.hasPrefix("postgresql://"),
            let components = URLComponents(string: url)
        else { throw .cannotOpen(path: hidden, reason: "not a postgres:// URL") }
        guard let username = components.user, !username.isEmpty else {
            throw .cannotOpen(path: hidden, reason: "the URL names no user (postgres://user@host/db)")
        }
        let query = components.queryItems ?? []
        self.socketDirectory = query.first { $0.name == "host" }?.value
        self.host = components.host.flatMap { $0.isEmpty ? nil : $0 } ?? "127.0.0.1"
        self.port = components.port ?? 5432
        self.username = username
        self.password = components.password
        let path = components.path.hasPrefix("/") ? String(components.path.dropFirst()) : components.path
        self.database = path.isEmpty ? nil : path
    }

    /// The pool's configuration.
    func clientConfiguration(applicationName: String, maximumConnections: Int) -> PostgresClient.Configuration {
        var configuration: PostgresClient.Configuration
        if let socketDirectory {
            configuration = .init(
                unixSocketPath: "\(socketDirectory)/.s.PGSQL.\(port)", username: username, password: password,
                database: database
            )
        } else {
            configuration = .init(
                host: host, port: port, username: username, password: password, database: database, tls: .disable
            )
        }
        configuration.options.maximumConnections = maximumConnections
        configuration.options.connectTimeout = .seconds(5)
        configuration.options.additionalStartupParameters = [("application_name", applicationName)]
        return configuration
    }

    /// The configuration of a single connection (schema set-up, LISTEN).
    func connectionConfiguration(applicationName: String) -> PostgresConnection.Configuration {
        var configuration: PostgresConnection.Configuration
        if let socketDirectory {
            configuration = .init(
                unixSocketPath: "\(socketDirectory)/.s.PGSQL.\(port)", username: username, password: password,
                database: database
            )
        } else {
            configuration = .init(
                host: host, port: port, username: username, password: password, database: database, tls: .disable
            )
        }
        configuration.options.connectTimeout = .seconds(5)
        configuration.options.additionalStartupParameters = [("application_name", applicationName)]
        return configuration
    }
}
