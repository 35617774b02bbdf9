/// A coding key for any string: endpoint names and keys not known in advance.
struct AnyCodingKey: CodingKey, Hashable {
    /// The key.
    var stringValue: String
    /// Always nil: these keys name object members.
    var intValue: Int? { nil }

    /// Creates a key.
    init(_ stringValue: String) {
        self.stringValue = stringValue
    }

    /// Creates a key.
    init(stringValue: String) {
        self.stringValue = stringValue
    }

    /// Integer keys are not used.
    init?(intValue: Int) {
        nil
    }
}
