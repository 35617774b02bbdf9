import BinderyRuntime

/// Small builders of OpenAPI 3.1 JSON, for the server's document and an app's own ``Route``s.
///
/// The document's shared components can be referred to by name: responses `BadRequest`,
/// `NotFound`, `ContentTooLarge`, `UnsupportedMediaType`, `HeaderFieldsTooLarge`, `ShuttingDown`;
/// the schema `Problem`.
public enum OpenAPI {
    /// `{"$ref": "#/components/<kind>/<name>"}`.
    public static func ref(_ kind: String, _ name: String) -> JSONValue {
        ["$ref": .string("#/components/\(kind)/\(name)")]
    }

    /// A reference to a shared schema.
    public static func schema(_ name: String) -> JSONValue { ref("schemas", name) }

    /// A reference to a shared response.
    public static func response(_ name: String) -> JSONValue { ref("responses", name) }

    /// A reference to a shared parameter.
    public static func parameter(_ name: String) -> JSONValue { ref("parameters", name) }

    /// A reference to a shared header.
    public static func header(_ name: String) -> JSONValue { ref("headers", name) }

    /// `{"<media>": {"schema": <schema>}}`.
    public static func content(_ schema: JSONValue, as media: String = "application/json") -> JSONValue {
        .object([media: ["schema": schema]])
    }

    /// A response carrying an RFC 9457 problem.
    public static func problem(_ description: String) -> JSONValue {
        ["description": .string(description), "content": content(schema("Problem"), as: "application/problem+json")]
    }

    /// A plain-text string schema.
    public static let string: JSONValue = ["type": "string"]

    /// `schema` (one with a single `type`) or `null`, as `"type": [T, "null"]`: the form code
    /// generators read, where a `oneOf` with `{"type": "null"}` is dropped. A reference has no
    /// type to widen: refer to a nullable component instead (``Schema/nullableName(of:)``).
    static func nullable(_ schema: JSONValue) -> JSONValue {
        guard case .object(var members) = schema, case .string(let type)? = members["type"] else {
            assertionFailure("only a schema with one type can be made nullable inline: \(schema)")
            return schema
        }
        members["type"] = [.string(type), "null"]
        return .object(members)
    }

    /// The credentials view-model routes take: none (a session is created on first use), a
    /// bearer token or the session cookie.
    static let sessionSecurity: JSONValue = [[:], ["bearerAuth": []], ["sessionCookie": []]]

    /// The credentials of an operation that needs a signed-in session: a bearer token or the
    /// session cookie of a session signed in (`POST /api/session/sign-in`).
    static let signedInSecurity: JSONValue = [["bearerAuth": []], ["sessionCookie": []]]

    /// `Name` for `name`: the first letter upper-cased, for operation ids.
    static func capitalized(_ name: String) -> String {
        name.prefix(1).uppercased() + name.dropFirst()
    }

    /// An operation (no credentials needed) answering `ok` with 200, the shared 431, and `also`.
    public static func operation(
        _ id: String, tag: String, summary: String, description: String? = nil, ok: JSONValue,
        also: [String: JSONValue] = [:]
    ) -> JSONValue {
        var operation: [String: JSONValue] = [
            "operationId": .string(id),
            "tags": [.string(tag)],
            "summary": .string(summary),
            "responses": .object(["200": ok, "431": response("HeaderFieldsTooLarge")].merging(also) { $1 }),
        ]
        if let description { operation["description"] = .string(description) }
        return .object(operation)
    }

    /// An object schema of `properties`, no others allowed; all required unless `required` says.
    public static func object(_ properties: [String: JSONValue], required: [String]? = nil) -> JSONValue {
        [
            "type": "object",
            "properties": .object(properties),
            "additionalProperties": false,
            "required": .array((required ?? properties.keys.sorted()).map(JSONValue.string)),
        ]
    }
}
