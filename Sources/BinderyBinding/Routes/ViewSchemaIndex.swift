import BinderyRuntime

/// Finds the declaration of the view model a path addresses (`list/items/42` is an
/// `ItemCell`) without a session, so that `Allow` and 405 follow the declarations.
struct ViewSchemaIndex: Sendable {
    private let roots: [String: ViewModelSchema]

    /// Indexes the screens' roots by name.
    init(screens: [Screen]) {
        roots = Dictionary(screens.map { ($0.name, $0.schema) }) { first, _ in first }
    }

    /// The schema of the view model at `path`, or nil when no declared route matches it.
    func schema(at path: String) -> ViewModelSchema? {
        var segments = path.split(separator: "/", omittingEmptySubsequences: false)[...]
        guard let root = segments.popFirst(), var schema = roots[String(root)] else { return nil }
        while !segments.isEmpty {
            guard let child = schema.child(for: segments) else { return nil }
            segments = segments.dropFirst(child.length)
            schema = child.viewModel
        }
        return schema
    }
}
