import Logging

/// What a view-model write needs besides itself; the write itself runs server-side
/// (PostgresStore+WriteFunctions.swift), sent by ``PostgresWriteBatch``.
extension PostgresStore {
    /// How this node writes: its log policy, its id and its channel.
    struct WriteContext: Sendable {
        /// Which log entries a write prunes.
        var policy: VersionLogPolicy
        /// Carried in the change notifications.
        var nodeID: String
        /// This node's channel: its own writes are not sent to it.
        var ownChannel: String
        /// Where the statements log.
        var logger: Logger
    }
}
