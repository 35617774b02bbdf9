import BinderyRuntime

/// The named shapes the view-model operations use, collected while their paths are built and
/// then written once to `components/schemas`.
struct OpenAPISchemaRegistry {
    /// The shapes seen so far, by name (the first declaration of a name wins).
    private(set) var shapes: [String: Schema] = [:]
    /// Descriptions of some shapes, by name.
    private var descriptions: [String: String] = [:]

    /// `schema` as JSON Schema, whose named shapes become references kept for the components.
    mutating func use(_ schema: Schema) -> JSONValue {
        shapes.merge(schema.namedShapes) { first, _ in first }
        return schema.jsonSchema()
    }

    /// Gives the named shape `name` a description in the components.
    mutating func describe(_ name: String, as description: String) {
        descriptions[name] = description
    }

    /// The components: each named shape's JSON Schema, with its description if it has one (a
    /// nullable twin, `XOrNull`, has `X`'s).
    var components: [String: JSONValue] {
        Dictionary(
            uniqueKeysWithValues: shapes.map { name, shape in
                let described = descriptions[name] ?? shapes.keys.first { Schema.nullableName(of: $0) == name }.flatMap { descriptions[$0] }
                guard let description = described, case .object(var members) = shape.jsonSchema() else {
                    return (name, shape.jsonSchema())
                }
                members["description"] = .string(description)
                return (name, .object(members))
            })
    }
}
