import Foundation
import Logging

/// How a ``PostgresStore`` runs: its node id, its pool, its group commits and its LISTEN connection.
package struct PostgresStoreOptions: Sendable {
    /// This node's id, carried in every change notification it sends so that a node can tell its
    /// own notifications apart; no spaces. A random 8-hex-digit id by default.
    package var nodeID: String
    /// The most connections the pool opens (the LISTEN connection is not counted).
    package var maximumConnections: Int
    /// The most operations put in one transaction.
    package var maxBatchSize: Int
    /// The first wait before the LISTEN connection is opened again after it dropped; doubled after
    /// each failed attempt.
    package var reconnectDelay: Duration
    /// The longest wait between two attempts to open the LISTEN connection.
    package var maximumReconnectDelay: Duration
    /// Where the store and postgres-nio log background events (reconnects, failed attempts).
    package var logger: Logger

    /// Options; every value has a default fit for a server.
    package init(
        nodeID: String = Self.randomNodeID(),
        maximumConnections: Int = 8,
        maxBatchSize: Int = 256,
        reconnectDelay: Duration = .milliseconds(100),
        maximumReconnectDelay: Duration = .seconds(5),
        logger: Logger = Logger(label: "BinderyStore.postgres")
    ) {
        self.nodeID = nodeID.isEmpty ? Self.randomNodeID() : String(nodeID.map { $0.isWhitespace ? "-" : $0 })
        self.maximumConnections = max(1, maximumConnections)
        self.maxBatchSize = max(1, maxBatchSize)
        self.reconnectDelay = reconnectDelay
        self.maximumReconnectDelay = max(reconnectDelay, maximumReconnectDelay)
        self.logger = logger
    }

    /// Eight random hex digits.
    package static func randomNodeID() -> String {
        String(UUID().uuidString.lowercased().prefix(8))
    }
}
