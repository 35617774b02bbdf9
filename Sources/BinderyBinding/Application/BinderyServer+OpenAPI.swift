import BinderyStore
import Logging

extension BinderyServer {
    /// The OpenAPI document a server of the app `build` makes with `configuration` serves at
    /// `/openapi.json`, without opening its store or listening (an executable's `openapi`).
    public static func openAPIDocument(
        configuration: BinderyConfiguration, app build: @Sendable (AppContext) throws -> BinderyApp
    ) rethrows -> [UInt8] {
        var logger = Logger(label: "bindery.openapi")
        logger.logLevel = .critical
        return try BinderyServer(configuration: configuration, logger: logger, store: MemoryStore(), app: build)
            .openAPIDocument
    }
}
