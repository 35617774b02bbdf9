/// A model every session shares, kept in the server's store and followed across nodes: what an
/// app lists in `BinderyApp.sharedModels` so the server opens it before it serves. Use
/// ``SharedCollection``.
public protocol SharedModel: AnyObject, Sendable {
    /// The model's name, unique in an app: its records are stored under it.
    var name: String { get }
    /// How the server opens and refreshes the model (Bindery's own use).
    var connection: SharedModelConnection { get }
}

/// What the server does with a ``SharedModel``: open it over its storage, reload it when another
/// node changed it. Made by ``SharedCollection``; an app only passes it on.
public struct SharedModelConnection: Sendable {
    /// Loads the model from `storage`, storing its first-start records when it holds none.
    package let open: @Sendable (any SharedRecordStorage) async throws(SharedRecordError) -> Void
    /// Reloads every record (after missed notifications).
    package let refreshAll: @Sendable () async -> Void
    /// Reloads the record `id` when the store holds a newer version than `version`'s predecessor.
    package let refresh: @Sendable (_ id: String, _ version: Int) async -> Void
}
