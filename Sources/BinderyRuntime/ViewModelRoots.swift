/// The top-level screens of a session and how to build them.
public protocol ViewModelRoots: Sendable {
    /// The names of the root view models, e.g. `["form", "list", "gallery"]`.
    var names: [String] { get }
    /// Builds the root view model called `name`; called once per session, on first use.
    func makeRoot(named name: String) -> (any ViewModel)?
}
