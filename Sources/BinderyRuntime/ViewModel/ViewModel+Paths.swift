/// Where a view model and its children are served, derived from the declared child routes: no
/// path is written twice.
extension ViewModel {
    /// The path this view model is served at (`list/items/42`); before a session hosts it, its
    /// declaration's name in lower case (a screen named after its root's declaration, which is
    /// what the view-model tester assumes).
    public var servedPath: String {
        commandStates.servedPath ?? Self.declaration.name.lowercased()
    }

    /// The path of the child that the declared child route `route` gives `parameter`
    /// (`items/{id}` of `list`: `list/items/42`), then, with `next`, of that child's own
    /// route `next` (its `edit`: `list/items/42/edit`).
    public func path(to route: String, _ parameter: String = "", then next: String? = nil, _ nextParameter: String = "") -> String {
        guard let child = Self.declaration.schema.children.first(where: { $0.name == route }) else {
            preconditionFailure("\(Self.declaration.name) declares no child route \(route)")
        }
        var path = Self.append(child, parameter, to: servedPath)
        if let next {
            guard let grandchild = child.viewModel.children.first(where: { $0.name == next }) else {
                preconditionFailure("\(child.viewModel.name) declares no child route \(next)")
            }
            path = Self.append(grandchild, nextParameter, to: path)
        }
        return path
    }

    /// The page URL of ``path(to:_:then:_:)``: what a command answers as `navigate`.
    public func page(to route: String, _ parameter: String = "", then next: String? = nil, _ nextParameter: String = "") -> String {
        "/" + path(to: route, parameter, then: next, nextParameter)
    }

    private static func append(_ child: ViewModelSchema.Child, _ parameter: String, to path: String) -> String {
        [path, child.segment, child.parameter.isEmpty ? "" : parameter].filter { !$0.isEmpty }.joined(separator: "/")
    }
}

extension ViewModel {
    /// The page of the sibling that this view model's own route gives `parameter`
    /// (`/list/items/4` beside `list/items/3`): its path with the last segment replaced.
    public func siblingPage(_ parameter: String) -> String {
        "/" + servedPath.split(separator: "/").dropLast().joined(separator: "/") + "/" + parameter
    }
}
