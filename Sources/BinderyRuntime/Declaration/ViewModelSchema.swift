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
    }

    /// One child route, e.g. `items/{id}`.
    public struct Child: Sendable {
        /// The route's name, which also names its page template (`item`, `photo`).
        public let name: String
        /// A page title for the child's screen.
        public let title: String
        /// The output whose value titles a child's page, if any.
        public let titleMember: String?
        /// The literal path segment, `items`.
        public let segment: String
        /// The parameter's name, `id`.
        public let parameter: String
        /// The values the parameter takes.
        public let parameterSchema: Schema
        /// The child's own schema.
        public let viewModel: ViewModelSchema

        /// `items/{id}`.
        public var pattern: String { "\(segment)/{\(parameter)}" }
    }

    /// The view model type's name, unique in an application (`Form`, `POICell`).
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
}
