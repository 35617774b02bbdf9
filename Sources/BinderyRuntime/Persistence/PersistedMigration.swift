/// One step in the history of what a view model (or a shared record) persists: it turns state
/// stored at one version into the next. A declaration's migrations are listed oldest first, and
/// their count states the version: with none, state is stored at version 1; with two, at 3, and
/// state stored at 1 is read through both.
///
/// A migration is a plain function of JSON, so it can be tested on its own (``migrate(_:)``).
/// Never edit one that shipped: add another.
///
/// ```swift
/// persists: .inputs(and: [.value("total", \.total)]).migrations([
///     .renaming("count", to: "total"),
/// ])
/// ```
public struct PersistedMigration: Sendable {
    /// What it changes, for logs and the store check's report.
    public let summary: String
    private let body: @Sendable (JSONValue) throws -> JSONValue

    /// A migration that turns stored state into the next version's with `migrate`; an error it
    /// throws stops the state from being read (it is kept as it was, and the server says why).
    public init(_ summary: String, _ migrate: @escaping @Sendable (_ state: JSONValue) throws -> JSONValue) {
        self.summary = summary
        self.body = migrate
    }

    /// The state `state` becomes at the next version.
    public func migrate(_ state: JSONValue) throws -> JSONValue {
        try body(state)
    }

    /// Renames the top-level member `old` to `new` (a renamed persisted value or input).
    public static func renaming(_ old: String, to new: String) -> Self {
        PersistedMigration("renames \(old) to \(new)") { state in
            guard case .object(var members) = state, let value = members.removeValue(forKey: old) else { return state }
            members[new] = value
            return .object(members)
        }
    }

    /// Removes the top-level member `name`, whose value is no longer kept: the one way to drop
    /// stored data, said out loud.
    public static func removing(_ name: String) -> Self {
        PersistedMigration("removes \(name)") { state in
            guard case .object(var members) = state else { return state }
            members[name] = nil
            return .object(members)
        }
    }

    /// Changes the top-level member `name` with `change` (a changed type, a new field in its
    /// records); a missing member is left missing.
    public static func updating(_ name: String, _ change: @escaping @Sendable (_ value: JSONValue) throws -> JSONValue) -> Self {
        PersistedMigration("updates \(name)") { state in
            guard case .object(var members) = state, let value = members[name] else { return state }
            members[name] = try change(value)
            return .object(members)
        }
    }
}
