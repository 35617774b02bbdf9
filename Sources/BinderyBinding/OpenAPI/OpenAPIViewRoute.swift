import BinderyRuntime

/// One addressable view model of the document: a screen's root (`list`) or a child route below
/// it (`list/items/{id}`), found by walking the screens' declarations.
struct OpenAPIViewRoute {
    /// One parameter of the route's pattern, e.g. `id` of `items/{id}`.
    struct Parameter {
        /// The parameter's name.
        let name: String
        /// The values the view model accepts.
        let schema: Schema
        /// The child route that declares it.
        let child: ViewModelSchema.Child
    }

    /// The path below `/api/views/` and below `/` (the page): `list/items/{id}`.
    let pattern: String
    /// The screen it belongs to, which tags its operations.
    let screen: String
    /// The stem of its operation ids: `List`, `ListItem`.
    let name: String
    /// A human title: "List", "Item".
    let title: String
    /// The view model's schema.
    let schema: ViewModelSchema
    /// The parameters of the pattern, outermost first.
    let parameters: [Parameter]
    /// Who may read it: its own rule and every parent's.
    let readAccess: AccessSummary

    /// Every screen's root and every child route below it, depth first.
    static func all(_ screens: [Screen]) -> [OpenAPIViewRoute] {
        screens.flatMap { screen in
            let root = OpenAPIViewRoute(
                pattern: screen.name, screen: screen.name, name: OpenAPI.capitalized(screen.name), title: screen.title,
                schema: screen.schema, parameters: [], readAccess: screen.schema.readAccess
            )
            return [root] + root.descendants
        }
    }

    /// The child routes below this one, depth first.
    private var descendants: [OpenAPIViewRoute] {
        schema.children.flatMap { child in
            let route = OpenAPIViewRoute(
                pattern: "\(pattern)/\(child.pattern)", screen: screen, name: name + OpenAPI.capitalized(child.name),
                title: child.title, schema: child.viewModel,
                parameters: parameters
                    + (child.hasParameter ? [Parameter(name: child.parameter, schema: child.parameterSchema, child: child)] : []),
                readAccess: readAccess.combined(with: child.viewModel.readAccess)
            )
            return [route] + route.descendants
        }
    }
}
