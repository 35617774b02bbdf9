/// A child route of a view model type, e.g. the list's `items/{id}`: the parent creates the
/// child for the next page and answers it here.
public struct ChildRoute<Model: AnyObject>: Sendable {
    /// Loads what resolving needs; runs on the session's actor.
    public typealias Preparation = nonisolated(nonsending) @Sendable (Model) async -> Void

    /// The type-erased description.
    public let schema: ViewModelSchema.Child
    let resolve: @Sendable (Model, String) -> (any ViewModel)?
    let prepare: Preparation

    /// Declares a route `segment/{parameter}` to children described by `child`; with an empty
    /// `segment` the route is `{parameter}` right below the parent (`list/{id}`).
    ///
    /// `resolve` finds the child for a parameter value. `prepare` loads what `resolve` needs
    /// when a child is asked for before its parent has it (a shared URL opened in a new
    /// session); it runs on the session's actor.
    public init(
        _ name: String,
        title: String,
        titleMember: String? = nil,
        segment: String,
        parameter: String,
        parameterSchema: Schema,
        child: ViewModelSchema,
        resolve: @escaping @Sendable (Model, String) -> (any ViewModel)?,
        prepare: @escaping Preparation = { _ in }
    ) {
        schema = .init(
            name: name, title: title, titleMember: titleMember, segment: segment, parameter: parameter,
            parameterSchema: parameterSchema, viewModel: child
        )
        self.resolve = resolve
        self.prepare = prepare
    }
}

extension ChildRoute {
    /// Declares a route to one fixed page right below the parent, `segment` with no parameter
    /// (`items/{id}/edit`); `resolve` answers the page's view model.
    public static func page(
        _ name: String,
        title: String,
        titleMember: String? = nil,
        segment: String,
        child: ViewModelSchema,
        resolve: @escaping @Sendable (Model) -> (any ViewModel)?
    ) -> Self {
        Self(
            name, title: title, titleMember: titleMember, segment: segment, parameter: "",
            parameterSchema: .enumeration([segment]), child: child, resolve: { model, _ in resolve(model) }
        )
    }
}
