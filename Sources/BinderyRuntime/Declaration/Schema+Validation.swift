/// Checking values against a ``Schema``. Patterns are unanchored, as in JSON Schema: write `^…$`.
extension Schema {
    /// Why `value` does not have this shape, or nil when it does.
    ///
    /// The reason reads as a sentence fragment after the member's name: "expected a string, got
    /// number", "longer than 64 characters", "must be one of red, black".
    public func violation(by value: JSONValue) -> String? {
        switch (self, value) {
        case (.named(_, let inner), _):
            return inner.violation(by: value)
        case (.nullable, .null):
            return nil
        case (.nullable(let inner), _):
            return inner.violation(by: value)
        case (.string(let maxLength, let pattern, let oneOf), .string(let text)):
            if let oneOf, !oneOf.contains(text) { return "must be one of \(oneOf.joined(separator: ", "))" }
            // JSON Schema counts code points, not grapheme clusters (2020-12 validation §6.3.1).
            if let maxLength, text.unicodeScalars.count > maxLength { return "longer than \(maxLength) characters" }
            if let pattern, !Self.matches(text, pattern: pattern) { return "does not match \(pattern)" }
            return nil
        case (.integer(let minimum, let maximum), _):
            guard let number = value.intValue, value.typeName == "number" else {
                return "expected an integer, got \(value.typeName)"
            }
            if let minimum, number < minimum { return "must be at least \(minimum)" }
            if let maximum, number > maximum { return "must be at most \(maximum)" }
            return nil
        case (.number, .int), (.number, .double), (.boolean, .bool):
            return nil
        case (.array(let element), .array(let values)):
            for (index, item) in values.enumerated() {
                if let reason = element.violation(by: item) { return "[\(index)]: \(reason)" }
            }
            return nil
        case (.object(let members, let required), .object(let values)):
            if let missing = required.first(where: { values[$0] == nil }) { return "missing \"\(missing)\"" }
            for (name, item) in values.sorted(by: { $0.key < $1.key }) {
                guard let shape = members[name] else { return "unexpected member \"\(name)\"" }
                if let reason = shape.violation(by: item) { return "\"\(name)\" \(reason)" }
            }
            return nil
        default:
            return "expected \(expectedTypeName), got \(value.typeName)"
        }
    }

    /// The JSON type this schema expects, for error messages.
    var expectedTypeName: String {
        switch self {
        case .string: "a string"
        case .integer: "an integer"
        case .number: "a number"
        case .boolean: "a boolean"
        case .array: "an array"
        case .object: "an object"
        case .nullable(let inner): "\(inner.expectedTypeName) or null"
        case .named(_, let inner): inner.expectedTypeName
        }
    }

    private static func matches(_ text: String, pattern: String) -> Bool {
        guard let regex = try? Regex(pattern) else { return false }
        return (try? regex.firstMatch(in: text)) != nil
    }
}
