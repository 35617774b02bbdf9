/// Opens the store a location names, for the command line to call once at start-up.
extension StoreLocation {
    /// Opens (and creates) the store; throws ``StoreError/cannotOpen(path:reason:)`` for a bad
    /// file, or a PostgreSQL server that cannot be reached or set up (the password hidden).
    package func open(
        logPolicy: VersionLogPolicy = VersionLogPolicy(), postgresOptions: PostgresStoreOptions = PostgresStoreOptions()
    ) async throws -> any SessionStateStore {
        switch self {
        case .sqlite(let path):
            try SQLiteStore(path: path, logPolicy: logPolicy)
        case .memory:
            MemoryStore(logPolicy: logPolicy)
        case .postgres(let url):
            try await PostgresStore(url: url, logPolicy: logPolicy, options: postgresOptions)
        }
    }
}
