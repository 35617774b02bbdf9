import BinderyHTTP
import BinderyRuntime

/// The JSON of `/api/views/{path}/presence`.
enum PresenceBody {
    /// The field of `PUT` `{"field": "<name>"}`: nil for no body, `{}` or `"field": null` (on
    /// the screen, in no field). Throws a 422 problem for anything else.
    static func field(from body: JSONValue?) throws(Problem) -> String? {
        guard let body else { return nil }
        guard let members = body.objectValue else {
            throw Problem(status: .unprocessableContent, title: "Invalid presence", detail: "The body must be an object {\"field\": name or null}.")
        }
        if let unknown = Set(members.keys).subtracting(["field"]).sorted().first {
            throw Problem(status: .unprocessableContent, title: "Invalid presence", detail: "Unknown member \(unknown); only field is taken.")
        }
        switch members["field"] {
        case nil, .null?:
            return nil
        case .string(let field)? where !field.isEmpty && field.unicodeScalars.count <= PresenceBoard.maxFieldLength:
            return field
        default:
            throw Problem(
                status: .unprocessableContent, title: "Invalid presence",
                detail: "field must be null or a string of 1 to \(PresenceBoard.maxFieldLength) characters.", extensions: ["field": "field"]
            )
        }
    }

    /// `{"you": {"id", "name", "colour", "field"}, "others": [...]}`.
    static func answer(you: Collaborator, field: String?, others: [PresenceBoard.Entry]) -> JSONValue {
        let me = PresenceBoard.json(PresenceBoard.Entry(collaborator: you, field: field, expires: .distantFuture))
        return .object(["you": me, "others": .array(others.map(PresenceBoard.json))])
    }
}
