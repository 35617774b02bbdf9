/// One edit applied to a collaborative text: the operation as applied, the revision it made, and
/// the client's id for it (nil for a change that came as a whole value, a write or a command).
package struct TextEdit: Hashable, Sendable {
    /// The client's id of the edit, which makes a repeated request answer the first answer.
    package var id: String?
    /// The revision the edit made (its record's version).
    package var revision: Int
    /// The operation as applied, on the text as the revision before left it.
    package var operation: TextOperation

    /// An applied edit.
    package init(id: String?, revision: Int, operation: TextOperation) {
        self.id = id
        self.revision = revision
        self.operation = operation
    }

    /// `{"id", "revision", "ops"}`, as answers and events carry it (`id` is null for a
    /// whole-value change).
    package var json: JSONValue {
        .object(["id": .optional(id), "revision": .int(revision), "ops": operation.json])
    }
}

/// Every edit of one text between two revisions: `edits` turn the text at `from` into the text
/// at `revision` (revisions in between changed other fields of the record, or nothing).
package struct TextEdits: Hashable, Sendable {
    /// The revision the edits start from.
    package var from: Int
    /// The revision they end at.
    package var revision: Int
    /// The edits, oldest first, each after `from` and at most `revision`.
    package var edits: [TextEdit]

    /// Edits from `from` to `revision`.
    package init(from: Int, revision: Int, edits: [TextEdit]) {
        self.from = from
        self.revision = revision
        self.edits = edits
    }

    /// The edits' operations, composed into one.
    package var operation: TextOperation {
        TextOperation(edits.flatMap(\.operation.components))
    }
}
