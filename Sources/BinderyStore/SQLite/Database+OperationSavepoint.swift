import GRDB

/// The savepoint around each operation of a group commit, with its statements cached.
///
/// GRDB's `inSavepoint` prepares `SAVEPOINT` and `RELEASE` anew on every call: with one
/// operation per PATCH that was about 5 % of the server's CPU in the PATCH bench, three quarters
/// of it SQL parsing. These are prepared once per connection.
extension Database {
    /// Runs `work` inside a savepoint of the open transaction. When it throws, everything it
    /// wrote is rolled back and its error is rethrown; when the rollback itself fails, that error
    /// is thrown instead, so the caller fails the whole transaction rather than commit half an
    /// operation.
    func inOperationSavepoint<T>(_ work: (Database) throws -> T) throws -> T {
        // Outside a transaction, SAVEPOINT would open one and RELEASE commit it.
        assert(isInsideTransaction, "an operation savepoint needs an open transaction")
        try cachedStatement(sql: "SAVEPOINT bindery_operation").execute()
        let value: T
        do {
            value = try work(self)
        } catch {
            try cachedStatement(sql: "ROLLBACK TO SAVEPOINT bindery_operation").execute()
            try cachedStatement(sql: "RELEASE SAVEPOINT bindery_operation").execute()
            throw error
        }
        try cachedStatement(sql: "RELEASE SAVEPOINT bindery_operation").execute()
        return value
    }
}
