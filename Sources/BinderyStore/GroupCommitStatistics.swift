/// Counts kept by the single writer of an ``SQLiteStore``: how many operations went into how many
/// transactions. Fewer transactions than operations means group commit is batching.
public struct GroupCommitStatistics: Hashable, Sendable {
    /// Transactions that committed.
    public var transactions = 0
    /// Operations acknowledged by those transactions (refused ones are not counted).
    public var operations = 0
    /// Transactions that failed to commit; every operation in them failed.
    public var failedTransactions = 0

    /// All counts zero.
    public init() {}
}
