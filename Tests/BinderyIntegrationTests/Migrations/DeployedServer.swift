import Bindery
import BinderyStore
import Foundation
import Logging

/// One build of an app served on a store for a deploy test: started, given to the test's body,
/// always shut down.
enum DeployedServer {
    /// Serves what `app` builds on `store` with `configure`'s changes to the test configuration
    /// (loopback, port 0, no client) and runs `body` with its port.
    static func serve<T>(
        on store: any SessionStateStore, configure: (inout BinderyConfiguration) -> Void = { _ in },
        app: @escaping @Sendable (AppContext) -> BinderyApp, _ body: (Int) async throws -> T
    ) async throws -> T {
        var logger = Logger(label: "bindery-deploy-test")
        logger.logLevel = .critical
        var configuration = BinderyConfiguration(server: ServerConfiguration(host: "127.0.0.1", port: 0), servesClient: false)
        configure(&configuration)
        let server = BinderyServer(configuration: configuration, logger: logger, store: store, app: app)
        do {
            let port = try await server.start()
            let result = try await body(port)
            await server.shutdown()
            return result
        } catch {
            await server.shutdown()
            throw error
        }
    }
}
