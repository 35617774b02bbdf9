/// A view model's committed persisted state, kept as JSON text and read back on the rare
/// occasions it is needed (a rollback, a merge): text is a fraction of the `JSONValue`'s size.
///
/// A large object is kept member by member, each member's text interned (``SharedBytes``): the
/// big member of a loaded list's state (every spot and hotel of the load, the same upstream data
/// for every session) is then one buffer for all sessions, whatever their small members (the
/// current city, the last error) say. A small state is one text, interned too.
struct CommittedState {
    /// From this size on, an object's members are kept apart.
    static let splitSize = 1024

    private enum Storage {
        case text([UInt8])
        case members([(name: String, text: [UInt8])])
    }

    private let storage: Storage

    /// Keeps `value` as text.
    init(_ value: JSONValue) {
        let text = JSONWriter.bytes(of: value)
        if text.count >= Self.splitSize, case .object(let members) = value {
            storage = .members(members.map { (name: $0.key, text: SharedBytes.pool.intern(JSONWriter.bytes(of: $0.value))) })
        } else {
            storage = .text(SharedBytes.pool.intern(text))
        }
    }

    /// The state, read back from its text; nil if the text does not parse (it always should).
    var value: JSONValue? {
        switch storage {
        case .text(let text):
            return try? JSONValue(parsing: text)
        case .members(let texts):
            var members: [String: JSONValue] = [:]
            for (name, text) in texts {
                guard let member = try? JSONValue(parsing: text) else { return nil }
                members[name] = member
            }
            return .object(members)
        }
    }
}
