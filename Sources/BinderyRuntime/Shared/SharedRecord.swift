/// A record of a ``SharedCollection``: a value every session shares, with a stable id and a
/// version the collection raises by 1 with every committed change.
///
/// The collection sets both: `id` when it adds the record, `version` when it commits it. The
/// record's JSON (its `Codable` encoding) is what the store keeps.
///
/// Text fields several users edit at once are its *collaborative texts*: list them, by a key
/// that stays the same while the record lives, and bind each to an input with
/// ``InputDeclaration/collaborative(_:maxLength:text:rule:)``.
///
/// ```swift
/// struct Note: SharedRecord {
///     var id: String
///     var version = 1
///     var text: String
///
///     var collaborativeTexts: [String: String] { ["text": text] }
///
///     mutating func setCollaborativeText(_ key: String, to value: String) -> Bool {
///         guard key == "text" else { return false }
///         text = value
///         return true
///     }
/// }
/// ```
public protocol SharedRecord: Codable, Sendable, Hashable {
    /// The record's id: unique in its collection, also its path segment in URLs.
    var id: String { get set }
    /// Starts at 1 and grows by 1 with every committed change.
    var version: Int { get set }
    /// The migrations of its stored JSON, oldest first; none by default (see
    /// ``SharedRecord/persistedMigrations-swift.type.property``).
    static var persistedMigrations: [PersistedMigration] { get }
    /// The record's collaborative texts by key (`"name"`, `"steps/s1/name"`); none by default.
    var collaborativeTexts: [String: String] { get }
    /// Sets the collaborative text `key` to `value`; false when the record has no such text.
    mutating func setCollaborativeText(_ key: String, to value: String) -> Bool
}

extension SharedRecord {
    /// No collaborative texts.
    public var collaborativeTexts: [String: String] { [:] }

    /// No collaborative texts: nothing is set.
    public mutating func setCollaborativeText(_ key: String, to value: String) -> Bool { false }
}
