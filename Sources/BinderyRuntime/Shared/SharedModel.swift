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
/// node changed it. Made by ``SharedCollection`` and ``UserRecords``; an app only passes it on.
public struct SharedModelConnection: Sendable {
    /// Loads the model from `storage`, storing its first-start records when it holds none.
    package let open: @Sendable (any SharedRecordStorage) async throws(SharedRecordError) -> Void
    /// Reloads every record (after missed notifications).
    package let refreshAll: @Sendable () async -> Void
    /// Reloads the record `id` when the store holds a newer version than `version`'s predecessor.
    package let refresh: @Sendable (_ id: String, _ version: Int) async -> Void
    /// How a model of records per user (``UserRecords``) loads, follows and lets go of one user's.
    package let perUser: PerUser?
    /// The shape its records are stored with, and their migrations.
    package let recordShape: PersistedShape

    /// A connection; `perUser` for a model whose records belong to users.
    package init(
        open: @escaping @Sendable (any SharedRecordStorage) async throws(SharedRecordError) -> Void,
        refreshAll: @escaping @Sendable () async -> Void,
        refresh: @escaping @Sendable (_ id: String, _ version: Int) async -> Void,
        perUser: PerUser? = nil, recordShape: PersistedShape
    ) {
        self.recordShape = recordShape
        self.open = open
        self.refreshAll = refreshAll
        self.refresh = refresh
        self.perUser = perUser
    }

    /// One user's part of a model of records per user.
    package struct PerUser: Sendable {
        /// Loads the records of the user (an id) from their storage, once.
        package let open: @Sendable (_ user: String, any SharedRecordStorage) async throws(SharedRecordError) -> Void
        /// Lets go of the user's records.
        package let close: @Sendable (_ user: String) -> Void
        /// Reloads the user's record `id` when the store holds a newer version.
        package let refresh: @Sendable (_ user: String, _ id: String, _ version: Int) async -> Void
    }
}
