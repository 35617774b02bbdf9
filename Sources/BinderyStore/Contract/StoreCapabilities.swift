/// What a store can do beyond keeping sessions, asked once instead of casting the store: whether
/// it announces other nodes' commits (several nodes share it) and whether it reports its group
/// commits for `/metrics`.
package struct StoreCapabilities: Sendable {
    /// The store's change feed when nodes share it (PostgreSQL); nil for an embedded store.
    package let changeFeed: (any ChangeFeed)?
    /// The store's writer statistics, when it batches commits (SQLite, PostgreSQL).
    package let commitReporting: (any GroupCommitReporting)?
    /// What a deploy's check of stored state reads and moves (SQLite, PostgreSQL); nil for a
    /// store that starts empty.
    package let audit: (any StoredStateAudit)?

    /// A store's capabilities.
    package init(
        changeFeed: (any ChangeFeed)? = nil, commitReporting: (any GroupCommitReporting)? = nil, audit: (any StoredStateAudit)? = nil
    ) {
        self.audit = audit
        self.changeFeed = changeFeed
        self.commitReporting = commitReporting
    }

    /// Whether several nodes share the store.
    package var isShared: Bool { changeFeed != nil }
}

extension SQLiteStore {
    /// One node's store whose writer batches commits.
    package var capabilities: StoreCapabilities { StoreCapabilities(commitReporting: self, audit: self) }
}

extension PostgresStore {
    /// Shared by nodes: a change feed, and a writer that batches commits.
    package var capabilities: StoreCapabilities { StoreCapabilities(changeFeed: self, commitReporting: self, audit: self) }
}

extension MemoryStore {
    /// Nothing beyond keeping sessions.
    package var capabilities: StoreCapabilities { StoreCapabilities() }
}
