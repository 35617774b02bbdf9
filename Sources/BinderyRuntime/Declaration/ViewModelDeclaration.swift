/// Everything Bindery knows about a view model type, declared once next to it: its inputs,
/// outputs, commands and child routes, each with its schema.
///
/// The snapshot, PATCH validation, command execution, the OpenAPI document and the screen
/// catalogue all derive from it.
public struct ViewModelDeclaration<Model: AnyObject>: Sendable {
    /// The type's name, unique in an application (`Form`, `ItemCell`).
    public let name: String
    /// What the view model is, for documents.
    public let summary: String
    /// The inputs, in declaration order.
    public let inputs: [InputDeclaration<Model>]
    /// The outputs, in declaration order.
    public let outputs: [OutputDeclaration<Model>]
    /// The commands, in declaration order.
    public let commands: [CommandDeclaration<Model>]
    /// The child routes.
    public let children: [ChildRoute<Model>]
    /// What the view model keeps across restarts; nil keeps its inputs.
    public let persists: PersistedState<Model>?
    /// How writes of written-through inputs reach the shared model; nil when it has none.
    public let writeThrough: WriteThrough<Model>?
    /// How fast its writes must be committed or pushed (``latencyBudget(_:)``); none by default.
    public private(set) var latencyBudgets: [LatencyBudget] = []
    /// Who may read it (``readable(by:)``): everyone by default.
    public private(set) var readAccess: Access<Model> = .everyone
    /// Who may write its inputs and run its commands (``writable(by:)``): everyone by default.
    public private(set) var writeAccess: Access<Model> = .everyone

    /// Declares a view model type.
    public init(
        _ name: String,
        summary: String,
        inputs: [InputDeclaration<Model>] = [],
        outputs: [OutputDeclaration<Model>] = [],
        commands: [CommandDeclaration<Model>] = [],
        children: [ChildRoute<Model>] = [],
        persists: PersistedState<Model>? = nil,
        writeThrough: WriteThrough<Model>? = nil
    ) {
        self.name = name
        self.summary = summary
        self.inputs = inputs
        self.outputs = outputs
        self.commands = commands
        self.children = children
        self.persists = persists
        self.writeThrough = writeThrough
    }

    /// The declaration with a latency budget added: writes slower than its limit are counted as
    /// breaches per screen in `/metrics` and shown in the inspector.
    ///
    /// ```swift
    /// static let declaration = ViewModelDeclaration<NoteViewModel>("Note", summary: "A note.", inputs: [
    ///     .string("text", \.text, maxLength: 1000),
    /// ]).latencyBudget(.writeToPush(.milliseconds(25)))
    /// ```
    public func latencyBudget(_ budget: LatencyBudget) -> Self {
        var declared = self
        declared.latencyBudgets.removeAll { $0.measure == budget.measure }
        declared.latencyBudgets.append(budget)
        return declared
    }

    /// The declaration with who may read it: its snapshot, events, versions, texts and presence,
    /// and everything below it (its child routes). Others get 401 when not signed in, else 403;
    /// the catalogue lists it only for sessions that may.
    ///
    /// ```swift
    /// ViewModelDeclaration<TodosViewModel>("Todos", summary: "My todos.", …).readable(by: .signedIn)
    /// ```
    public func readable(by access: Access<Model>) -> Self {
        var declared = self
        declared.readAccess = access
        return declared
    }

    /// The declaration with who may write its inputs (`PATCH`, text edits) and run its commands;
    /// an input or a command may narrow it further (``InputDeclaration/writable(by:)``,
    /// ``CommandDeclaration/executable(by:)``). It does not reach its children: each states its own.
    ///
    /// ```swift
    /// ViewModelDeclaration<NoteEditViewModel>("NoteEdit", summary: "…", …).writable(by: .signedIn)
    /// ```
    public func writable(by access: Access<Model>) -> Self {
        var declared = self
        declared.writeAccess = access
        return declared
    }

    /// Whether its snapshots show collaborative texts: its own inputs' or its children's in a
    /// collection output.
    var showsCollaborativeTexts: Bool {
        inputs.contains(where: \.isCollaborative) || outputs.contains(where: \.showsCollaborativeTexts)
    }

    /// The type-erased description, for documents and catalogues.
    public var schema: ViewModelSchema {
        ViewModelSchema(
            name: name,
            summary: summary,
            inputs: inputs.map {
                .init(
                    name: $0.name, schema: $0.schema, nullDefault: $0.nullDefault, isCollaborative: $0.isCollaborative,
                    isSensitive: $0.isSensitive, writeAccess: $0.writeAccess.summary
                )
            },
            outputs: outputs.map { .init(name: $0.name, schema: $0.schema) },
            commands: commands.map {
                .init(
                    name: $0.name, argument: $0.argument, navigates: $0.navigates, policy: $0.policy,
                    isDeferred: $0.isDeferred, summary: $0.summary, executeAccess: $0.executeAccess.summary,
                    signsIn: $0.signsIn
                )
            },
            children: children.map(\.schema),
            latencyBudgets: latencyBudgets,
            readAccess: readAccess.summary,
            writeAccess: writeAccess.summary,
            persistence: persistedShape
        )
    }
}
