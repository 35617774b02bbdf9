/// A view model served by Bindery: inputs, derived outputs, commands and children.
///
/// Conforming types are `@Observable` classes. Bindery renders a snapshot from these members
/// while tracking what they read, so any change to observed state produces a new version.
/// A view model lives in one session's isolation domain and is never shared between sessions.
public protocol ViewModel: AnyObject {
    /// The inputs a client may write (two-way bindings), in a stable order.
    var inputs: [Input] { get }
    /// The derived, read-only outputs (one-way and collection bindings).
    var outputs: [String: JSONValue] { get }
    /// The commands a client may execute (execution bindings).
    var commands: [Command] { get }

    /// The child view model at `path` below this one (e.g. `["items", "scenic-1"]`), if any.
    ///
    /// A parent creates its children (seed 001): the child for the next page is built here.
    func child(at path: ArraySlice<String>) -> (any ViewModel)?

    /// Loads what the child at `path` needs before ``child(at:)`` can find it.
    ///
    /// Called when a path below this view model does not resolve, so that a shared URL such as
    /// `gallery/photos/3` works in a brand-new session (the gallery imports its photos first).
    func prepareChild(at path: ArraySlice<String>) async

    /// Work that runs while someone watches the view model (ReactiveViewModel's `active`).
    ///
    /// Bindery starts it when the view model becomes active and cancels it when the last
    /// watcher leaves, so expensive loading starts when someone is looking, not in `init`.
    func whileActive() async
}

extension ViewModel {
    /// No inputs by default.
    public var inputs: [Input] { [] }
    /// No commands by default.
    public var commands: [Command] { [] }
    /// No children by default.
    public func child(at path: ArraySlice<String>) -> (any ViewModel)? { nil }
    /// Nothing to prepare by default.
    public func prepareChild(at path: ArraySlice<String>) async {}
    /// Nothing to do on activation by default.
    public func whileActive() async {}

    /// The command with this name, if the view model has one.
    public func command(named name: String) -> Command? {
        commands.first { $0.name == name }
    }

    /// The members every snapshot of the view model has: `inputs`, `outputs`, `commands`.
    public var snapshotMembers: [String: JSONValue] {
        [
            "inputs": .object(Dictionary(uniqueKeysWithValues: inputs.map { ($0.name, $0.value) })),
            "outputs": .object(outputs),
            "commands": .object(Dictionary(uniqueKeysWithValues: commands.map { ($0.name, $0.json) })),
        ]
    }

    /// The view model's body as a child in a collection output: its id, path and snapshot members.
    public func childJSON(id: String, path: String) -> JSONValue {
        var members = snapshotMembers
        members["id"] = .string(id)
        members["path"] = .string(path)
        return .object(members)
    }
}
