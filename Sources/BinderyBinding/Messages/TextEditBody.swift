import BinderyRuntime

/// The body of `POST /api/views/{path}/inputs/{name}/ops` and the JSON of the answers about a
/// collaborative text.
enum TextEditBody {
    /// The longest client id of an edit, in characters.
    static let maxIDLength = 128

    /// Reads `{"id": "<client id>", "base": <revision>, "ops": [json0 text ops]}`; throws the
    /// reason it is not one (nothing is applied).
    static func request(from body: JSONValue?, input name: String) throws(ViewModelError) -> TextEditRequest {
        func invalid(_ reason: String) -> ViewModelError { .invalidTextEdit(name: name, reason: reason) }
        guard let members = body?.objectValue else { throw invalid("the body must be an object {id, base, ops}") }
        if let unknown = Set(members.keys).subtracting(["id", "base", "ops"]).sorted().first {
            throw invalid("unknown member \(unknown)")
        }
        guard let id = members["id"]?.stringValue, !id.isEmpty, id.unicodeScalars.count <= maxIDLength else {
            throw invalid("id must be a string of 1 to \(maxIDLength) characters")
        }
        guard let base = members["base"]?.intValue, base >= 0 else { throw invalid("base must be a revision, 0 or more") }
        guard let ops = members["ops"] else { throw invalid("ops is missing") }
        do {
            return TextEditRequest(id: id, base: base, operation: try TextOperation(json: ops))
        } catch {
            throw invalid(error.reason)
        }
    }

    /// `{"text", "revision"}`, and with a catch-up `"from"` and `"edits"` (null when no longer
    /// kept).
    static func text(_ text: String, revision: Int, after: Int?, edits: TextEdits?) -> JSONValue {
        var members: [String: JSONValue] = ["text": .string(text), "revision": .int(revision)]
        if let after {
            members["from"] = .int(after)
            members["edits"] = edits.map { .array($0.edits.map(\.json)) } ?? .null
        }
        return .object(members)
    }

    /// The answer to an applied edit: its id, base (`from`), new revision and ops as applied,
    /// and the edits it was transformed against (`concurrent`).
    static func applied(_ edits: TextEdits, id: String) -> JSONValue {
        let own = edits.edits.last { $0.id == id }
        return .object([
            "id": .string(id), "from": .int(edits.from), "revision": .int(own?.revision ?? edits.revision),
            "ops": own?.operation.json ?? .array([]),
            "concurrent": .array(edits.edits.filter { $0.id != id }.map(\.json)),
        ])
    }
}
