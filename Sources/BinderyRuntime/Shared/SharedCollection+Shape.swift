import Foundation

extension SharedRecord {
    /// The migrations of the record type's stored JSON, oldest first (none by default): its
    /// persisted version is their count + 1. Records stored at an earlier version are read
    /// through them; without one, a record that would lose a field is never read nor overwritten.
    ///
    /// ```swift
    /// struct Todo: SharedRecord {
    ///     var id: String
    ///     var version = 1
    ///     var text: String   // was `title`
    ///     static var persistedMigrations: [PersistedMigration] { [.renaming("title", to: "text")] }
    /// }
    /// ```
    public static var persistedMigrations: [PersistedMigration] { [] }
}

extension SharedCollection {
    /// The shape records are stored with: the record type's JSON as its `Codable` conformance
    /// reads it, and its migrations.
    package static var recordShape: PersistedShape {
        PersistedShapes.shape(of: ObjectIdentifier(Record.self)) {
            let described = ShapeProbe.describe(Record.self)
            return PersistedShape(description: described.shape, migrations: Record.persistedMigrations, isOpaque: described.isOpaque) {
                state in PersistedValue<SharedCollection>.loss(reading: state, as: Record.self).map { ("(record)", $0) }
            }
        }
    }

    /// The record stored as `data` with `shape`, as this build reads it; nil when it cannot
    /// (newer or unreadable: the server's start check reports such records).
    static func read(_ data: Data, storedAs shape: StoredShape?) -> Record? {
        let current = recordShape
        if shape == current.stored, !current.isOpaque { return try? JSONDecoder().decode(Record.self, from: data) }
        guard let json = try? JSONValue(parsing: [UInt8](data)), let read = try? current.read(json, storedAs: shape) else { return nil }
        return try? JSONDecoder().decode(Record.self, from: Data(JSONWriter.bytes(of: read.state)))
    }
}
