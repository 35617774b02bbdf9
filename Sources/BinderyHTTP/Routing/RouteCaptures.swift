/// What a route pattern captured from a path: nothing, one parameter (most routes), or several.
/// One capture is kept without a dictionary, which would cost an allocation and two hashes on
/// every routed request.
enum RouteCaptures: Sendable {
    case none
    case one(name: String, value: String)
    case many([String: String])

    /// The captures of `dictionary`.
    init(_ dictionary: [String: String]) {
        self = dictionary.isEmpty ? .none : .many(dictionary)
    }

    /// The value captured for `name`.
    subscript(name: String) -> String? {
        switch self {
        case .none: nil
        case .one(let captured, let value): captured == name ? value : nil
        case .many(let dictionary): dictionary[name]
        }
    }

    /// The captures as a dictionary (`Request.parameters`).
    var dictionary: [String: String] {
        switch self {
        case .none: [:]
        case .one(let name, let value): [name: value]
        case .many(let dictionary): dictionary
        }
    }

    /// Adds a capture; a later one of the same name wins.
    mutating func add(_ name: String, _ value: String) {
        switch self {
        case .none:
            self = .one(name: name, value: value)
        case .one(let first, let firstValue):
            var dictionary = [first: firstValue]
            dictionary[name] = value
            self = .many(dictionary)
        case .many(var dictionary):
            dictionary[name] = value
            self = .many(dictionary)
        }
    }
}
