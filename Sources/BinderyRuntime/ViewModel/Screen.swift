/// A top-level screen of a session, registered once: its name (also its path), title, how to
/// build its root view model, and the declaration that describes it and its child routes.
public struct Screen: Sendable {
    /// The screen's path and name, e.g. `form`.
    public let name: String
    /// A human title, e.g. "Login form".
    public let title: String
    /// The root view model's declaration, child routes included.
    public let schema: ViewModelSchema
    /// Builds a fresh root view model for one session, given who the session is (its ``Viewer``).
    public let makeRoot: @Sendable (Viewer) -> any ViewModel

    /// Registers a screen whose root is a `Root`, the same for everyone.
    public init<Root: ViewModel>(_ name: String, title: String, make: @escaping @Sendable () -> Root) {
        self.init(name, title: title) { (_: Viewer) in make() }
    }

    /// Registers a screen whose root is a `Root` made for one session's viewer: the view model
    /// keeps the viewer and reads who is signed in from it (``Viewer/user``).
    ///
    /// ```swift
    /// Screen("todos", title: "Todos") { viewer in TodosViewModel(todos: todos, viewer: viewer) }
    /// ```
    public init<Root: ViewModel>(_ name: String, title: String, make: @escaping @Sendable (Viewer) -> Root) {
        self.name = name
        self.title = title
        self.schema = Root.declaration.schema
        self.makeRoot = make
    }
}

extension Screen {
    /// `screens` keyed by name; the first of two with one name wins.
    package static func byName(_ screens: [Screen]) -> [String: Screen] {
        Dictionary(screens.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
    }
}
