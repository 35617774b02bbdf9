/// The shape of a JSON value: what an input accepts, what an output shows, what a command takes.
///
/// One schema both validates values (PATCH bodies, command arguments) and describes them
/// (`jsonSchema`, the JSON Schema 2020-12 that OpenAPI 3.1 documents carry).
public indirect enum Schema: Sendable, Hashable {
    /// A string, optionally limited in length, matched against a pattern, or one of a set.
    case string(maxLength: Int? = nil, pattern: String? = nil, oneOf: [String]? = nil)
    /// An integer, optionally limited to a range.
    case integer(minimum: Int? = nil, maximum: Int? = nil)
    /// Any number.
    case number
    /// `true` or `false`.
    case boolean
    /// An array whose elements all have one shape.
    case array(Schema)
    /// An object with these members; `required` lists those that must be present.
    /// No other members are allowed.
    case object([String: Schema], required: [String])
    /// The value or `null`.
    case nullable(Schema)
    /// A shape with a name of its own, shared wherever it appears (an OpenAPI component).
    case named(String, Schema)

    /// A plain string.
    public static let text = Schema.string()
    /// An integer without limits.
    public static let int = Schema.integer()

    /// An object whose members are all required.
    public static func object(_ members: [String: Schema]) -> Schema {
        .object(members, required: members.keys.sorted())
    }

    /// A string that is one of `values`.
    public static func enumeration(_ values: [String]) -> Schema {
        .string(oneOf: values)
    }

    /// The shape with any names looked through.
    public var unnamed: Schema {
        if case .named(_, let inner) = self { inner.unnamed } else { self }
    }

    /// Whether `null` is a valid value.
    public var isNullable: Bool {
        switch self {
        case .nullable: true
        case .named(_, let inner): inner.isNullable
        default: false
        }
    }
}

extension Schema {
    /// The schema as JSON Schema; named shapes become `$ref`s to `refPrefix + name`.
    public func jsonSchema(refPrefix: String = "#/components/schemas/") -> JSONValue {
        switch self {
        case .string(let maxLength, let pattern, let oneOf):
            var members: [String: JSONValue] = ["type": "string"]
            if let maxLength { members["maxLength"] = .int(maxLength) }
            if let pattern { members["pattern"] = .string(pattern) }
            if let oneOf { members["enum"] = .array(oneOf.map(JSONValue.string)) }
            return .object(members)
        case .integer(let minimum, let maximum):
            var members: [String: JSONValue] = ["type": "integer"]
            if let minimum { members["minimum"] = .int(minimum) }
            if let maximum { members["maximum"] = .int(maximum) }
            return .object(members)
        case .number:
            return ["type": "number"]
        case .boolean:
            return ["type": "boolean"]
        case .array(let element):
            return ["type": "array", "items": element.jsonSchema(refPrefix: refPrefix)]
        case .object(let members, let required):
            var schema: [String: JSONValue] = [
                "type": "object",
                "properties": .object(members.mapValues { $0.jsonSchema(refPrefix: refPrefix) }),
                "additionalProperties": false,
            ]
            if !required.isEmpty { schema["required"] = .array(required.map(JSONValue.string)) }
            return .object(schema)
        case .nullable(let inner):
            return inner.nullableJSONSchema(refPrefix: refPrefix)
        case .named(let name, _):
            return ["$ref": .string(refPrefix + name)]
        }
    }

    /// The value or `null`, in the forms code generators read (swift-openapi-generator drops a
    /// `oneOf` branch of a bare `{"type": "null"}`): `"type": [T, "null"]` (and `null` among an
    /// enumeration's values), or, for a named shape, a reference to its nullable twin
    /// (``nullableName(of:)``), which ``namedShapes`` lists.
    private func nullableJSONSchema(refPrefix: String) -> JSONValue {
        if case .named(let name, let inner) = self {
            return inner.isNullable ? jsonSchema(refPrefix: refPrefix) : ["$ref": .string(refPrefix + Self.nullableName(of: name))]
        }
        guard case .object(var members) = jsonSchema(refPrefix: refPrefix) else { return jsonSchema(refPrefix: refPrefix) }
        guard case .string(let type)? = members["type"] else { return .object(members) }  // nullable already
        members["type"] = [.string(type), "null"]
        if case .array(let values)? = members["enum"] { members["enum"] = .array(values + [.null]) }
        return .object(members)
    }

    /// The component name of a named shape's nullable twin: `ExecutionFailure` → `ExecutionFailureOrNull`.
    public static func nullableName(of name: String) -> String { name + "OrNull" }

    /// Every named shape inside this one (itself included), by name, for a components section;
    /// a named shape that appears nullable also brings its nullable twin.
    public var namedShapes: [String: Schema] {
        var found: [String: Schema] = [:]
        collectNamed(into: &found)
        return found
    }

    private func collectNamed(into found: inout [String: Schema]) {
        switch self {
        case .string, .integer, .number, .boolean: return
        case .array(let element): element.collectNamed(into: &found)
        case .object(let members, _): members.values.forEach { $0.collectNamed(into: &found) }
        case .nullable(.named(let name, let inner)) where !inner.isNullable:
            Schema.named(name, inner).collectNamed(into: &found)
            found[Self.nullableName(of: name)] = found[Self.nullableName(of: name)] ?? .nullable(inner)
        case .nullable(let inner): inner.collectNamed(into: &found)
        case .named(let name, let inner):
            guard found[name] == nil else { return }
            found[name] = inner
            inner.collectNamed(into: &found)
        }
    }
}
