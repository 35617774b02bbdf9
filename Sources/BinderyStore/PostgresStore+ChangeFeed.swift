/// Change notifications of the PostgreSQL store: every committed view-model write is announced on
/// ``PostgresStore/channel`` in its own transaction, and arrives on every node's streams.
extension PostgresStore: ChangeFeed {
    /// A new stream of changes committed by any node, starting with ``StoreChange/resynchronize``.
    package func changes() -> AsyncStream<StoreChange> {
        listener.subscribe()
    }

    /// How many times the LISTEN connection started listening: more than 1 after a reconnect.
    package var listenCount: Int {
        listener.listenCount
    }
}
