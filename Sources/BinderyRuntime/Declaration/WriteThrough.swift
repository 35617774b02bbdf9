/// How a view model commits writes of its ``InputDeclaration/writtenThrough(_:schema:nullDefault:read:rule:)``
/// inputs to the shared model they show, before the write is answered.
///
/// ```swift
/// writeThrough: WriteThrough { editor, write in
///     try await editor.notes.update(id: editor.id) { note in
///         if let title = write.string("title") { note.title = title }
///     }
/// }
/// ```
public struct WriteThrough<Model: AnyObject>: Sendable {
    /// Commits one checked write; throwing refuses it and nothing changes.
    public typealias Commit = nonisolated(nonsending) @Sendable (Model, SharedWrite) async throws(ViewModelError) -> Void

    let commit: Commit

    /// Commits with `commit`. For a conditional write (``SharedWrite/isConditional``) throw
    /// ``ViewModelError/versionMismatch(current:)`` when the model changed since the view model
    /// was last shown; the graph then answers 412 with the view model's own version.
    public init(_ commit: @escaping Commit) {
        self.commit = commit
    }
}

/// One write of written-through inputs: their checked values (`null` already replaced by each
/// input's default), by name.
public struct SharedWrite: Sendable {
    /// The written inputs' values, by name; inputs the write did not name are absent.
    public let values: [String: JSONValue]
    /// Whether the client made the write conditional (`If-Match`): it must apply only to what
    /// the view model showed.
    public let isConditional: Bool

    /// A write of `values`.
    public init(values: [String: JSONValue], isConditional: Bool) {
        self.values = values
        self.isConditional = isConditional
    }

    /// The string written to `input`, if the write named it.
    public func string(_ input: String) -> String? { values[input]?.stringValue }

    /// The value written to `input` as one of an enumeration's raw values, if the write named it.
    public func value<Value: RawRepresentable>(_ input: String, as type: Value.Type) -> Value? where Value.RawValue == String {
        string(input).flatMap(Value.init(rawValue:))
    }
}
