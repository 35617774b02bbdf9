/// Change notifications of the PostgreSQL store: a committed view-model write is announced, in its
/// own transaction, on the channels of the other nodes that hold its space; announcements go to
/// every node on ``PostgresStore/channel``.
extension PostgresStore: ChangeFeed {
    /// A new stream of other nodes' changes in the spaces held here, and of announcements,
    /// starting with ``StoreChange/resynchronize``.
    package func changes() -> AsyncStream<StoreChange> {
        listener.subscribe()
    }

    /// Holds `space` for this node (see ``SpaceHolder`` for why nothing is missed).
    package func hold(_ space: SessionTokenHash) async throws {
        try await read { _ in try await holder.hold(space) }
    }

    /// Stops holding `space`.
    package func release(_ space: SessionTokenHash) async throws {
        try await read { _ in try await holder.release(space) }
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
