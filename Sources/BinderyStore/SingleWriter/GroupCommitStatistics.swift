/// Counts kept by a store's single writer (``SQLiteStore``'s, or a ``PostgresStore`` node's): how
/// many operations went into how many transactions. Fewer transactions than operations means group
/// commit is batching.
package struct GroupCommitStatistics: Hashable, Sendable {
    /// Transactions that committed.
    package var transactions = 0
    /// Operations acknowledged by those transactions (refused ones are not counted).
    package var operations = 0
    /// Transactions that failed to commit; every operation in them failed.
    package var failedTransactions = 0

    /// All counts zero.
    package init() {}
}

/// A store whose writes go through one group-committing writer, and that reports its counts
/// (for `/metrics`). The memory store has no transactions and does not conform.
package protocol GroupCommitReporting: Sendable {
    /// The writer's counts since the store opened.
    var statistics: GroupCommitStatistics { get }
}

extension SQLiteStore: GroupCommitReporting {}

extension PostgresStore: GroupCommitReporting {}
