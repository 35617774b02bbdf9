/// What a view model type looks like from outside: its inputs, outputs, commands and children.
///
/// The type-erased face of a ``ViewModelDeclaration``; the OpenAPI document, the screen
/// catalogue and the tests read it without building a view model.
public struct ViewModelSchema: Sendable {
    /// One input: a member a client may write.
    public struct Input: Sendable {
        /// The input's name in snapshots and patches.
        public let name: String
        /// The values it accepts.
        public let schema: Schema
        /// The value a `null` write stands for, when the input is nullable with a default.
        public let nullDefault: JSONValue?
        /// Whether it is a collaborative text (edited by text operations, merged).
        public let isCollaborative: Bool
        /// Whether its value is a secret that tools mask and the store never keeps
        /// (``InputDeclaration/sensitive()``).
        public let isSensitive: Bool
        /// Who may write it, besides the view model's own rule (``InputDeclaration/writable(by:)``).
        public var writeAccess: AccessSummary = .everyone
    }

    /// One output: a member derived by the view model.
    public struct Output: Sendable {
        /// The output's name in snapshots.
        public let name: String
        /// The values it shows.
        public let schema: Schema
    }

    /// One command.
    public struct Command: Sendable {
        /// The command's name in snapshots and URLs.
        public let name: String
        /// The object the command takes as its body; nil when it takes none.
        public let argument: Schema?
        /// Whether a successful execution may answer `navigate`.
        public let navigates: Bool
        /// What happens to an execution while another runs.
        public let policy: CommandPolicy
        /// Whether the work awaits (may answer 202 and be cancelled) or finishes at once.
        public let isDeferred: Bool
        /// What the command does, for documents.
        public let summary: String
        /// Who may run it, besides the view model's own rule (``CommandDeclaration/executable(by:)``).
        public var executeAccess: AccessSummary = .everyone
        /// Whether it signs the session in (``CommandDeclaration/signIn(_:summary:enabled:refusal:credentials:signedIn:)``):
        /// it is always answered once done, with the session's new token.
        public var signsIn = false
    }

    /// One child route, e.g. `items/{id}`.
    public struct Child: Sendable {
        /// The route's name, which also names its page template (`item`, `guest`).
        public let name: String
        /// A page title for the child's screen.
        public let title: String
        /// The output whose value titles a child's page, if any.
        public let titleMember: String?
        /// The literal path segment, `items`; empty for a route right below the parent
        /// (`list/{id}`).
        public let segment: String
        /// The parameter's name, `id`; empty for a fixed page such as `edit`
        /// (``ChildRoute/page(_:title:titleMember:segment:child:resolve:)``).
        public let parameter: String
        /// The values the parameter takes.
        public let parameterSchema: Schema
        /// The child's own schema.
        public let viewModel: ViewModelSchema

        /// `items/{id}`, `{id}` without a segment, or `edit` without a parameter.
        public var pattern: String {
            guard hasParameter else { return segment }
            return segment.isEmpty ? "{\(parameter)}" : "\(segment)/{\(parameter)}"
        }

        /// Whether the route takes a parameter; a fixed page (`edit`) does not.
        public var hasParameter: Bool { !parameter.isEmpty }

        /// How many path components the route takes: 2 (`items/{id}`), or 1 without a segment
        /// or without a parameter.
        public var length: Int { segment.isEmpty || !hasParameter ? 1 : 2 }

        /// The first of `routes` addressing `path`: one whose literal segment is the first
        /// component wins over one without a segment.
        public static func route<Route, Component: StringProtocol>(
            for path: ArraySlice<Component>, in routes: [Route], _ child: (Route) -> Child
        ) -> Route? {
            routes.first { !child($0).segment.isEmpty && child($0).matches(path) }
                ?? routes.first { child($0).segment.isEmpty && child($0).matches(path) }
        }

        /// Whether the route addresses `path` (its first components): a literal segment must be
        /// the first component, a route without one takes any first component.
        public func matches<Component: StringProtocol>(_ path: ArraySlice<Component>) -> Bool {
            path.count >= length && (segment.isEmpty || path.first.map { $0 == segment } == true)
        }
    }

    /// The view model type's name, unique in an application (`Form`, `ItemCell`).
    public let name: String
    /// What the view model is, for documents.
    public let summary: String
    /// The inputs, in declaration order.
    public let inputs: [Input]
    /// The outputs, in declaration order.
    public let outputs: [Output]
    /// The commands, in declaration order.
    public let commands: [Command]
    /// The child routes.
    public let children: [Child]
    /// How fast its writes must be committed or pushed (``ViewModelDeclaration/latencyBudget(_:)``).
    public var latencyBudgets: [LatencyBudget] = []
    /// Who may read it and everything below it (``ViewModelDeclaration/readable(by:)``).
    public var readAccess: AccessSummary = .everyone
    /// Who may write its inputs and run its commands (``ViewModelDeclaration/writable(by:)``).
    public var writeAccess: AccessSummary = .everyone
    /// The shape of what it persists, with its migrations (``ViewModelDeclaration/persistedShape``).
    public var persistence: PersistedShape

    /// Whether it declares an input the store must never keep (``InputDeclaration/sensitive()``).
    public var hasSensitiveInputs: Bool { inputs.contains(where: \.isSensitive) }

    /// The names of the sensitive inputs.
    package var sensitiveInputNames: [String] { inputs.filter(\.isSensitive).map(\.name) }

    /// Whether it or a view model below it declares a sign-in command.
    public var declaresSignIn: Bool {
        commands.contains(where: \.signsIn) || children.contains { $0.viewModel.declaresSignIn }
    }

    /// The schema of the view model at `path` below this one (`items/3`); itself for an empty
    /// path, nil when no route addresses it.
    public func descendant<Component: StringProtocol>(at path: ArraySlice<Component>) -> ViewModelSchema? {
        guard !path.isEmpty else { return self }
        guard let route = child(for: path) else { return nil }
        return route.viewModel.descendant(at: path.dropFirst(route.length))
    }

    /// The child route addressing `path` (the components below this view model).
    public func child<Component: StringProtocol>(for path: ArraySlice<Component>) -> Child? {
        Child.route(for: path, in: children) { $0 }
    }
}
