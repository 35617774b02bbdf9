import Observation
import Synchronization

/// Records that belong to one user each — their todo list, their drafts, their settings: kept
/// in the server's store for as long as the app keeps them (an idle session's expiry does not
/// touch them), live in every session of that user on every node, and out of reach of every
/// other user.
///
/// Each signed-in user has a ``SharedCollection`` of their own (``of(_:)``); an anonymous viewer
/// has none. A node loads a user's records when a session of that user arrives (signs in, or is
/// restored) and lets them go when the user's last session leaves its memory, so it holds the
/// records of the users it serves, not everyone's.
///
/// ```swift
/// let todos = UserRecords<Todo>("todos")
/// let app = BinderyApp(screens: [Screen("todos", title: "Todos") { viewer in TodosViewModel(todos: todos, viewer: viewer) }],
///                      sharedModels: [todos])
/// …
/// var items: [Todo] { todos.of(viewer)?.records ?? [] }
/// try await todos.of(viewer)?.add { id in Todo(id: id, title: title) }
/// ```
///
/// A user's records are found by the user's id only through that user's own viewer: a view model
/// cannot ask for another user's, so a request for another user's record finds nothing.
public final class UserRecords<Record: SharedRecord>: SharedModel, Observable {
    /// The model's name: each user's records are stored as `<name>/<id>` in that user's space.
    public let name: String
    private let makeID: @Sendable () -> String
    /// Each loaded user's collection, by user id.
    private let partitions = Mutex<[String: SharedCollection<Record>]>([:])
    /// Whether a missing partition is made in memory on first use (``inMemory(_:)``).
    private let makesPartitionsInMemory: Bool
    private let registrar = ObservationRegistrar()

    /// Declares the per-user model `name`; `makeID` names added records.
    public convenience init(_ name: String, makeID: @escaping @Sendable () -> String = SharedCollection<Record>.randomID) {
        self.init(name, makeID: makeID, inMemory: false)
    }

    private init(_ name: String, makeID: @escaping @Sendable () -> String, inMemory: Bool) {
        self.name = name
        self.makeID = makeID
        self.makesPartitionsInMemory = inMemory
    }

    /// A per-user model in memory, for tests and throwaway runs: a user's collection is made,
    /// empty, the first time it is asked for.
    public static func inMemory(_ name: String) -> UserRecords {
        UserRecords(name, makeID: SharedCollection<Record>.randomID, inMemory: true)
    }

    /// The records of the user `viewer` is signed in as; nil while it is anonymous. A render that
    /// calls it renders again when the viewer signs in.
    public func of(_ viewer: Viewer) -> SharedCollection<Record>? {
        guard let user = viewer.user else { return nil }
        return partition(of: user.id)
    }

    /// The loaded collection of the user `id`, made in memory first when this model does that.
    private func partition(of id: String) -> SharedCollection<Record>? {
        registrar.access(self, keyPath: \.partitionsShown)
        return partitions.withLock { partitions in
            if let partition = partitions[id] { return partition }
            guard makesPartitionsInMemory else { return nil }
            let made = SharedCollection<Record>.inMemory(name, [])
            partitions[id] = made
            return made
        }
    }

    /// Observation's key for "the set of loaded users changed".
    private var partitionsShown: Int { 0 }

    /// Whether the records of the user `id` are loaded on this node.
    package func isLoaded(user id: String) -> Bool {
        partitions.withLock { $0[id] != nil }
    }

    // MARK: The server's side

    /// How the server opens, follows and lets go of each user's records.
    public var connection: SharedModelConnection {
        SharedModelConnection(
            open: { _ throws(SharedRecordError) in },
            refreshAll: { [self] in
                for partition in partitions.withLock({ Array($0.values) }) { await partition.refresh() }
            },
            refresh: { _, _ in },
            perUser: SharedModelConnection.PerUser(
                open: { [self] user, storage throws(SharedRecordError) in try await open(user: user, storage) },
                close: { [self] user in close(user: user) },
                refresh: { [self] user, id, version in
                    guard let partition = partitions.withLock({ $0[user] }) else { return }
                    await partition.refresh(id: id, toVersion: version)
                }
            ),
            recordShape: SharedCollection<Record>.recordShape
        )
    }

    /// Loads the records of the user `user` from `storage` (once; a second session of the same user
    /// finds them loaded).
    private func open(user: String, _ storage: any SharedRecordStorage) async throws(SharedRecordError) {
        guard !isLoaded(user: user) else { return }
        let partition = SharedCollection<Record>(name, makeID: makeID)
        try await partition.open(storage)
        let added = partitions.withLock { partitions -> Bool in
            guard partitions[user] == nil else { return false }
            partitions[user] = partition
            return true
        }
        if added { registrar.withMutation(of: self, keyPath: \.partitionsShown) {} }
    }

    /// Lets go of the records of the user `user` (no session of theirs is left on this node).
    private func close(user: String) {
        let removed = partitions.withLock { $0.removeValue(forKey: user) } != nil
        if removed { registrar.withMutation(of: self, keyPath: \.partitionsShown) {} }
    }
}
