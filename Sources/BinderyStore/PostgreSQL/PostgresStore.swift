import Foundation
import Logging
import PostgresNIO

/// The shared ``SessionStateStore``: PostgreSQL through postgres-nio, for several nodes on one
/// database. Every view-model write checks the stored version in the database itself
/// (`UPDATE … WHERE version = expected`, or an insert that does nothing when the row exists), so
/// when two nodes write the same version, one commits and the other gets
/// ``StoreError/conflict(_:expected:stored:)``. A ``PostgresCommitter`` puts many callers' writes in
/// one transaction. A committed write is announced on the channel of each other node that holds
/// its space (a ``SpaceHolder``), announcements on `bindery_changes`; see ``ChangeFeed``.
package final class PostgresStore: SessionStateStore {
    /// The notification channel every node listens on, for announcements.
    package static let channel = "bindery_changes"

    /// The URL, with its password hidden.
    package let location: String
    /// This node's id, as carried in its change notifications.
    package let nodeID: String
    let client: PostgresClient
    let committer: PostgresCommitter
    let listener: ChangeListener
    /// The spaces this node holds, and its own channel.
    let holder: SpaceHolder
    let logPolicy: VersionLogPolicy
    let logger: Logger
    private let runTask: Task<Void, Never>

    /// Connects to `url` (`postgres://user[:password]@host[:port]/database`), creates or migrates the
    /// schema (safe when several nodes start at once) and starts the connection pool. Throws
    /// ``StoreError/cannotOpen(path:reason:)``, naming the URL without its password, when the
    /// server cannot be reached or the schema cannot be set up.
    package init(
        url: String, logPolicy: VersionLogPolicy = VersionLogPolicy(), options: PostgresStoreOptions = PostgresStoreOptions()
    ) async throws(StoreError) {
        let endpoint = try PostgresEndpoint(url: url)
        let location = StoreLocation.hidingPassword(in: url)
        do {
            try await Self.migrate(endpoint: endpoint, nodeID: options.nodeID, logger: options.logger)
        } catch {
            throw .cannotOpen(path: location, reason: Self.reason(for: error))
        }
        let client = PostgresClient(
            configuration: endpoint.clientConfiguration(
                applicationName: "bindery-\(options.nodeID)", maximumConnections: options.maximumConnections
            ),
            backgroundLogger: options.logger
        )
        self.location = location
        self.nodeID = options.nodeID
        self.client = client
        self.committer = PostgresCommitter(client: client, maxBatchSize: options.maxBatchSize, logger: options.logger)
        let listenerName = Self.listenerName(nodeID: options.nodeID)
        let holder = SpaceHolder(client: client, listener: listenerName, logger: options.logger)
        self.holder = holder
        self.listener = ChangeListener(
            configuration: endpoint.connectionConfiguration(applicationName: listenerName),
            ownChannel: holder.channel, options: options, prepare: { try await holder.restore() }
        )
        self.logPolicy = logPolicy
        self.logger = options.logger
        self.runTask = Task { await client.run() }
        // Rows of nodes that are gone stop costing their writers a notification from now on.
        do {
            try await read { _ in try await holder.deleteDeadListenersRows() }
        } catch {
            options.logger.warning("Holders of stopped nodes not deleted", metadata: ["error": "\(Self.reason(for: error))"])
        }
    }

    /// `bindery-listen-<node id>`, cut to PostgreSQL's 63 bytes of `application_name` (what
    /// `pg_stat_activity` shows, so that holders can be matched with live listeners).
    static func listenerName(nodeID: String) -> String {
        var name = "bindery-listen-"
        for character in nodeID where name.utf8.count + String(character).utf8.count <= 63 {
            name.append(character)
        }
        return name
    }

    /// How many transactions the writer committed, and how many operations they held.
    package var statistics: GroupCommitStatistics {
        committer.statistics
    }

    /// Commits what is queued, stops the LISTEN connection (ending every change stream) and shuts
    /// the pool down: later operations throw ``StoreError/unavailable(reason:)``.
    package func close() async throws {
        await committer.close()
        await listener.stop()
        runTask.cancel()
        await runTask.value
    }

    /// Runs a read on a pooled connection, turning errors into ``StoreError/unavailable(reason:)``.
    func read<T: Sendable>(_ work: (PostgresClient) async throws -> T) async throws -> T {
        do {
            return try await work(client)
        } catch let error as StoreError {
            throw error
        } catch let error as CancellationError {
            throw error
        } catch {
            throw StoreError.unavailable(reason: Self.reason(for: error))
        }
    }

    /// A short text for an underlying error: PostgreSQL's own message and SQLSTATE where there is
    /// one (postgres-nio's own descriptions hide everything).
    static func reason(for error: any Error) -> String {
        if let error = error as? StoreError {
            if case .unavailable(let reason) = error { return reason }
            return error.description
        }
        if let error = error as? PostgresTransactionError {
            return reason(for: error.closureError ?? error.commitError ?? error.beginError ?? error.rollbackError ?? error)
        }
        guard let error = error as? PSQLError else { return String(describing: error) }
        if let message = error.serverInfo?[.message] {
            return "\(message) (SQLSTATE \(error.serverInfo?[.sqlState] ?? "?"))"
        }
        if let underlying = error.underlying {
            return "\(error.code): \(underlying)"
        }
        return "\(error.code)"
    }
}
