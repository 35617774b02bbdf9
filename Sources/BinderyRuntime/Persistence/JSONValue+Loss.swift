extension JSONValue {
    /// Where `stored` holds something this value (the stored value read back and written again)
    /// does not, as a path (`[0].title`); nil when nothing would be lost. Members this value adds
    /// (a new field with a default) lose nothing; a stored `null` is nothing to lose; numbers
    /// compare by value.
    package func loss(of stored: JSONValue, at path: String = "") -> String? {
        switch (stored, self) {
        case (.null, _):
            return nil
        case (.object(let members), .object(let kept)):
            for name in members.keys.sorted() {
                guard let value = members[name], value != .null else { continue }
                guard let keptValue = kept[name] else { return path + "." + name }
                if let lost = keptValue.loss(of: value, at: path + "." + name) { return lost }
            }
            return nil
        case (.array(let elements), .array(let kept)):
            guard elements.count == kept.count else { return path.isEmpty ? "[]" : path }
            for (index, element) in elements.enumerated() {
                if let lost = kept[index].loss(of: element, at: path + "[\(index)]") { return lost }
            }
            return nil
        case (.int, _), (.double, _):
            return stored.doubleValue == doubleValue ? nil : (path.isEmpty ? "the value" : path)
        default:
            return stored == self ? nil : (path.isEmpty ? "the value" : path)
        }
    }
}
