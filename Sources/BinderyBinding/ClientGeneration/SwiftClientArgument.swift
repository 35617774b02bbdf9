import BinderyRuntime

/// How a generated command method takes its argument: labelled parameters for an object's
/// members (required ones first, then optional ones defaulted to nil, each group sorted), or one
/// `JSONValue` for any other shape.
package struct SwiftClientArgument {
    /// The parameter list: `name: String, durationSeconds: Int, agitation: String? = nil`.
    package let parameters: String
    /// Statements building `argument` before the call; empty when the expression needs none.
    package let preparation: [String]
    /// The `JSONValue` the command is run with.
    package let expression: String

    /// The argument of `schema`; nil when the command takes none.
    package init?(_ schema: Schema?) {
        guard let schema else { return nil }
        guard case .object(let members, let required) = schema.unnamed else {
            parameters = "_ argument: JSONValue"
            preparation = []
            expression = "argument"
            return
        }
        let mandatory = members.keys.filter(required.contains).sorted()
        let optional = members.keys.filter { !required.contains($0) }.sorted()
        var parameters: [String] = []
        var entries: [String] = []
        var additions: [String] = []
        for name in mandatory {
            let type = SwiftClientType(members[name]!)
            let identifier = SwiftNames.identifier(name)
            parameters.append("\(identifier): \(type.spelling)")
            entries.append("\(SwiftNames.literal(name)): \(type.json(identifier))")
        }
        for name in optional {
            let type = SwiftClientType(members[name]!)
            let identifier = SwiftNames.identifier(name)
            let unwrapped: SwiftClientType = if case .optional(let wrapped) = type { wrapped } else { type }
            parameters.append("\(identifier): \(unwrapped.spelling)? = nil")
            additions.append("if let value = \(identifier) { argument[\(SwiftNames.literal(name))] = \(unwrapped.json("value")) }")
        }
        self.parameters = parameters.joined(separator: ", ")
        let object = entries.isEmpty ? "[:]" : "[" + entries.joined(separator: ", ") + "]"
        if additions.isEmpty {
            preparation = []
            expression = ".object(\(object))"
        } else {
            preparation = ["var argument: [String: JSONValue] = \(object)"] + additions
            expression = ".object(argument)"
        }
    }
}
