import BinderyStore
import Logging
import ServiceLifecycle

/// The store as a service: open before everything else starts, closed after everything else
/// ended (it is the first service, so a graceful shutdown ends it last). Its own background work
/// (SQLite's WAL checkpoints, PostgreSQL's pool and LISTEN connection) runs between its opening
/// and its close.
struct StoreService: Service, CustomStringConvertible {
    let store: any SessionStateStore
    let logger: Logger

    func run() async throws {
        try? await gracefulShutdown()
        do {
            try await store.close()
        } catch {
            logger.error("Could not close the store: \(error)")
        }
        logger.info("Bindery stopped")
    }

    var description: String { "store" }
}
