/// Change notifications of the PostgreSQL store: every committed view-model write is announced on
/// ``PostgresStore/channel`` in its own transaction, and arrives on every node's streams.
extension PostgresStore: ChangeFeed {
    /// A new stream of changes committed by any node, starting with ``StoreChange/resynchronize``.
    package func changes() -> AsyncStream<StoreChange> {
        listener.subscribe()
    }

    /// Sends `message` on ``PostgresStore/channel``, marked as an announcement (not a change).
    package func announce(_ message: String) async throws {
        guard message.utf8.count <= maxAnnouncementLength else {
            throw StoreError.unavailable(reason: "an announcement of more than \(maxAnnouncementLength) bytes")
        }
        let payload = ChangeListener.announcementPrefix + message
        let logger = self.logger
        _ = try await committer.submit { connection in
            try await connection.query("SELECT pg_notify(\(PostgresStore.channel), \(payload))", logger: logger)
        }
    }

    /// How many times the LISTEN connection started listening: more than 1 after a reconnect.
    package var listenCount: Int {
        listener.listenCount
    }
}
