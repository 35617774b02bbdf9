/// Text operations as JSON, in json0's string form: `[{"p": 3, "si": "ab"}, {"p": 0, "sd": "x"}]`.
extension TextOperation {
    /// The operation read from a json0 component list; throws the reason it is not one.
    package init(json: JSONValue) throws(TextOperationDecodingError) {
        guard let list = json.arrayValue else { throw .init(reason: "ops must be an array of {p, si} or {p, sd} objects") }
        var components: [Component] = []
        for (index, item) in list.enumerated() {
            guard let object = item.objectValue else { throw .init(reason: "ops[\(index)] must be an object") }
            guard let offsetValue = object["p"], let offset = offsetValue.intValue, offset >= 0 else {
                throw .init(reason: "ops[\(index)].p must be an offset of 0 or more")
            }
            let unknown = Set(object.keys).subtracting(["p", "si", "sd"])
            guard unknown.isEmpty else { throw .init(reason: "ops[\(index)] has an unknown member \(unknown.sorted()[0])") }
            switch (object["si"], object["sd"]) {
            case (.string(let text)?, nil): components.append(.insert(text, at: offset))
            case (nil, .string(let text)?): components.append(.delete(text, at: offset))
            default: throw .init(reason: "ops[\(index)] must have either si (text to insert) or sd (text to delete), a string")
            }
        }
        self.init(components)
    }

    /// The operation as a json0 component list.
    package var json: JSONValue {
        .array(
            components.map { component in
                switch component {
                case .insert(let text, let at): .object(["p": .int(at), "si": .string(text)])
                case .delete(let text, let at): .object(["p": .int(at), "sd": .string(text)])
                }
            })
    }
}

/// Why a JSON value is not a text operation.
package struct TextOperationDecodingError: Error, Hashable, Sendable {
    /// What is wrong, for a problem's detail.
    package var reason: String
}
