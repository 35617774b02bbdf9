/// A record of a ``SharedCollection``: a value every session shares, with a stable id and a
/// version the collection raises by 1 with every committed change.
///
/// The collection sets both: `id` when it adds the record, `version` when it commits it. The
/// record's JSON (its `Codable` encoding) is what the store keeps.
///
/// ```swift
/// struct Note: SharedRecord {
///     var id: String
///     var version = 1
///     var text: String
/// }
/// ```
public protocol SharedRecord: Codable, Sendable, Hashable {
    /// The record's id: unique in its collection, also its path segment in URLs.
    var id: String { get set }
    /// Starts at 1 and grows by 1 with every committed change.
    var version: Int { get set }
}
