/// Opens the store a location names, for the command line to call once at start-up.
extension StoreLocation {
    /// Opens (and creates) the store; throws ``StoreError/cannotOpen(path:reason:)`` for a bad
    /// file and ``StoreLocationError`` for a location this build does not support yet.
    public func open(logPolicy: VersionLogPolicy = VersionLogPolicy()) throws -> any SessionStateStore {
        switch self {
        case .sqlite(let path):
            try SQLiteStore(path: path, logPolicy: logPolicy)
        case .memory:
            MemoryStore(logPolicy: logPolicy)
        case .postgres:
            throw StoreLocationError(text: description, reason: "PostgreSQL is not supported yet")
        }
    }
}
