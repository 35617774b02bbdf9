import BinderyRuntime

/// The Swift type a generated client uses for a ``Schema``: strings (enumerations too), integers,
/// numbers and booleans as themselves, `null` as an optional, arrays and objects as `JSONValue`.
package indirect enum SwiftClientType: Hashable, Sendable {
    /// `String`.
    case string
    /// `Int`.
    case int
    /// `Double`.
    case double
    /// `Bool`.
    case bool
    /// `JSONValue`: an object, or a nullable array or object (`.null` stands for null).
    case json
    /// `[JSONValue]`: an array.
    case jsonArray
    /// `Wrapped?`, of a scalar.
    case optional(SwiftClientType)

    /// The type for `schema`.
    package init(_ schema: Schema) {
        switch schema {
        case .string: self = .string
        case .integer: self = .int
        case .number: self = .double
        case .boolean: self = .bool
        case .array: self = .jsonArray
        case .object: self = .json
        case .named(_, let inner): self.init(inner)
        case .nullable(let inner):
            switch SwiftClientType(inner) {
            case .json, .jsonArray: self = .json
            case .optional(let wrapped): self = .optional(wrapped)
            case let scalar: self = .optional(scalar)
            }
        }
    }

    /// The type as Swift spells it.
    package var spelling: String {
        switch self {
        case .string: "String"
        case .int: "Int"
        case .double: "Double"
        case .bool: "Bool"
        case .json: "JSONValue"
        case .jsonArray: "[JSONValue]"
        case .optional(let wrapped): wrapped.spelling + "?"
        }
    }

    /// What a value reads as when the snapshot has none (before the first read): `""`, `0`,
    /// `false`, `.null`, `[]`; nil for an optional.
    package var fallback: String? {
        switch self {
        case .string: "\"\""
        case .int: "0"
        case .double: "0"
        case .bool: "false"
        case .json: ".null"
        case .jsonArray: "[]"
        case .optional: nil
        }
    }

    /// An expression of type `JSONValue` for the Swift expression `value` of this type.
    package func json(_ value: String) -> String {
        switch self {
        case .string: ".string(\(value))"
        case .int: ".int(\(value))"
        case .double: ".double(\(value))"
        case .bool: ".bool(\(value))"
        case .json: value
        case .jsonArray: ".array(\(value))"
        case .optional(let wrapped): "\(value).map { JSONValue\(wrapped.json("$0")) } ?? .null"
        }
    }

    /// An expression of this type reading `JSONValue?` `source` — `remote.output("x")` — decoded
    /// with `decoded` (`remote.output("x", as: T.self)`).
    package func read(json source: String, decoded: (String) -> String) -> String {
        switch self {
        case .json: "\(source) ?? .null"
        case .optional(let wrapped): decoded(wrapped.spelling)
        default: "\(decoded(spelling)) ?? \(fallback ?? "nil")"
        }
    }
}

extension Schema {
    /// A short description for documentation: `string, at most 64 characters`, `integer 1...10`,
    /// `one of "red", "black"`, `array of Step`, `… or null`.
    package var clientDescription: String {
        switch self {
        case .string(let maxLength, let pattern, let oneOf):
            if let oneOf { return "one of " + oneOf.map { "`\($0)`" }.joined(separator: ", ") }
            var parts = ["string"]
            if let maxLength { parts.append("at most \(maxLength) characters") }
            if let pattern { parts.append("matching `\(pattern)`") }
            return parts.joined(separator: ", ")
        case .integer(let minimum, let maximum):
            switch (minimum, maximum) {
            case let (minimum?, maximum?): return "integer \(minimum)...\(maximum)"
            case let (minimum?, nil): return "integer ≥ \(minimum)"
            case let (nil, maximum?): return "integer ≤ \(maximum)"
            case (nil, nil): return "integer"
            }
        case .number: return "number"
        case .boolean: return "boolean"
        case .array(let element): return "array of \(element.clientDescription)"
        case .object: return "object"
        case .nullable(let inner): return inner.clientDescription + ", or null"
        case .named(let name, _): return "`\(name)`"
        }
    }
}
