import BinderyRuntime

/// Small builders shared by the parts of the OpenAPI document.
enum OpenAPI {
    /// `{"$ref": "#/components/<kind>/<name>"}`.
    static func ref(_ kind: String, _ name: String) -> JSONValue {
        ["$ref": .string("#/components/\(kind)/\(name)")]
    }

    /// A reference to a shared schema.
    static func schema(_ name: String) -> JSONValue { ref("schemas", name) }

    /// A reference to a shared response.
    static func response(_ name: String) -> JSONValue { ref("responses", name) }

    /// A reference to a shared parameter.
    static func parameter(_ name: String) -> JSONValue { ref("parameters", name) }

    /// A reference to a shared header.
    static func header(_ name: String) -> JSONValue { ref("headers", name) }

    /// `{"<media>": {"schema": <schema>}}`.
    static func content(_ schema: JSONValue, as media: String = "application/json") -> JSONValue {
        .object([media: ["schema": schema]])
    }

    /// A response carrying an RFC 9457 problem.
    static func problem(_ description: String) -> JSONValue {
        ["description": .string(description), "content": content(schema("Problem"), as: "application/problem+json")]
    }

    /// A plain-text string schema.
    static let string: JSONValue = ["type": "string"]

    /// The credentials view-model routes take: none (a session is created on first use), a
    /// bearer token or the session cookie.
    static let sessionSecurity: JSONValue = [[:], ["bearerAuth": []], ["sessionCookie": []]]

    /// `Name` for `name`: the first letter upper-cased, for operation ids.
    static func capitalized(_ name: String) -> String {
        name.prefix(1).uppercased() + name.dropFirst()
    }
}
