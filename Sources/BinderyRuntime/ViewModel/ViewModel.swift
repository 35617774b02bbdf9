/// A view model served by Bindery: an `@Observable` class with a ``ViewModelDeclaration``.
///
/// Bindery renders a snapshot from the declared members while tracking what they read, so any
/// change to observed state produces a new version. A view model lives in one session's
/// isolation domain and is never shared between sessions.
public protocol ViewModel: AnyObject, SendableMetatype {
    /// The type's inputs, outputs, commands and child routes, each with its schema.
    static var declaration: ViewModelDeclaration<Self> { get }

    /// The live state of this view model's commands (one line: `public let commandStates = CommandStates()`).
    var commandStates: CommandStates { get }

    /// Work that runs while someone watches the view model (ReactiveViewModel's `active`).
    ///
    /// Bindery starts it when the view model becomes active and cancels it when the last
    /// watcher leaves, so expensive loading starts when someone is looking, not in `init`.
    func whileActive() async

    /// Whether what the view model shows no longer exists (a deleted record). The graph then
    /// stops hosting it: its streams end, its work is cancelled and its path answers 404.
    var isGone: Bool { get }
}

extension ViewModel {
    /// Nothing to do on activation by default.
    public func whileActive() async {}

    /// A view model exists as long as its parent resolves it, by default.
    public var isGone: Bool { false }

    /// The type-erased declaration.
    public var schema: ViewModelSchema { Self.declaration.schema }
}
