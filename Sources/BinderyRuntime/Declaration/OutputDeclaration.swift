/// One output of a view model type: a derived, read-only member of its snapshot, with the
/// schema of the values it shows.
public struct OutputDeclaration<Model: AnyObject>: Sendable {
    /// The output's name in snapshots.
    public let name: String
    /// The values it shows.
    public let schema: Schema
    let render: @Sendable (Model) -> JSONValue
    /// Whether it shows children with collaborative inputs.
    let showsCollaborativeTexts: Bool

    /// Declares an output rendered as JSON; `render`'s values must have the shape `schema` says
    /// (the view-model tester checks every snapshot against it).
    public init(_ name: String, schema: Schema, render: @escaping @Sendable (Model) -> JSONValue) {
        self.init(name, schema: schema, showsCollaborativeTexts: false, render: render)
    }

    private init(_ name: String, schema: Schema, showsCollaborativeTexts: Bool, render: @escaping @Sendable (Model) -> JSONValue) {
        self.name = name
        self.schema = schema
        self.render = render
        self.showsCollaborativeTexts = showsCollaborativeTexts
    }
}

extension OutputDeclaration {
    /// A string output.
    public static func string(_ name: String, _ value: @escaping @Sendable (Model) -> String) -> Self {
        Self(name, schema: .text) { .string(value($0)) }
    }

    /// A string output that is one of `values`.
    public static func enumeration(
        _ name: String, _ values: [String], _ value: @escaping @Sendable (Model) -> String
    ) -> Self {
        Self(name, schema: .enumeration(values)) { .string(value($0)) }
    }

    /// A string output that may be absent (`null`).
    public static func optionalString(_ name: String, _ value: @escaping @Sendable (Model) -> String?) -> Self {
        Self(name, schema: .nullable(.text)) { .optional(value($0)) }
    }

    /// A boolean output.
    public static func boolean(_ name: String, _ value: @escaping @Sendable (Model) -> Bool) -> Self {
        Self(name, schema: .boolean) { .bool(value($0)) }
    }

    /// An integer output.
    public static func integer(_ name: String, _ value: @escaping @Sendable (Model) -> Int) -> Self {
        Self(name, schema: .int) { .int(value($0)) }
    }

    /// A failure output (`{"message", "code", "origin"}` or `null`), such as a load's error.
    public static func failure(_ name: String, _ value: @escaping @Sendable (Model) -> ExecutionFailure?) -> Self {
        Self(name, schema: .nullable(ExecutionFailure.schema)) { value($0)?.json ?? .null }
    }

    /// A collection binding: an array of child view models' snapshots (a list's cell view
    /// models), each with its `id` and its `path`: the page the declared child route `route` gives
    /// that id (`list/items/<id>` for the list's `items/{id}`).
    public static func children(
        _ name: String,
        of child: ViewModelSchema,
        route: String,
        _ value: @escaping @Sendable (Model) -> [(id: String, viewModel: any ViewModel)]
    ) -> Self where Model: ViewModel {
        Self(name, schema: .array(child.childShape), showsCollaborativeTexts: child.inputs.contains(where: \.isCollaborative)) { model in
            .array(value(model).map { $0.viewModel.childJSON(id: $0.id, path: model.path(to: route, $0.id)) })
        }
    }
}
