import HTTPTypes

extension HTTPFields {
    /// The value of the field `name` exactly as `self[name]` gives it (repeated fields joined, with
    /// `"; "` for cookies and `", "` otherwise), without building a new string when the field is
    /// there once, as it is in almost every request: `self[name]` joins even a single value, a
    /// copy and an allocation on every request's hot path.
    package func value(_ name: HTTPField.Name) -> String? {
        var value: String?
        for field in self where field.name == name {
            guard value == nil else { return self[name] }
            value = field.value
        }
        return value
    }
}
