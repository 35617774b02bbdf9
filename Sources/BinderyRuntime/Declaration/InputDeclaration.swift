/// One input of a view model type: its name, the values it accepts, and the property it binds
/// (two-way: a client writes it with PATCH, the view model may write it too).
public struct InputDeclaration<Model: AnyObject>: Sendable {
    /// The input's name in snapshots and patches.
    public let name: String
    /// The values a write may carry.
    public let schema: Schema
    /// The value a `null` write stands for, when the input falls back to a default.
    public let nullDefault: JSONValue?
    /// Whether a write goes to a shared model (the declaration's ``WriteThrough``) instead of
    /// the view model: see ``writtenThrough(_:schema:nullDefault:read:rule:)``.
    public let isWrittenThrough: Bool
    /// Whether several users edit it at once by text operations: see
    /// ``collaborative(_:maxLength:text:rule:)``.
    public var isCollaborative: Bool { collaborativeText != nil }
    /// Whether its value is a secret (a password): clients mask it wherever they show state
    /// (the inspector, a copied curl line). See ``sensitive()``.
    public private(set) var isSensitive = false
    /// Who may write it, besides the view model's own rule (``writable(by:)``).
    public private(set) var writeAccess: Access<Model> = .everyone
    let collaborativeText: (@Sendable (Model) -> CollaborativeText?)?
    /// A collaborative input's rule, which judges the text alone.
    let textRule: (@Sendable (String) -> String?)?
    let read: @Sendable (Model) -> JSONValue
    let assign: @Sendable (Model, JSONValue) -> Void
    let rule: (@Sendable (Model, JSONValue) -> String?)?

    /// Declares an input from its schema, a reader and an assignment of checked values.
    ///
    /// `rule` adds a check that depends on the view model's state (a city id the upstream
    /// knows); it answers the reason a value is refused, or nil.
    public init(
        _ name: String,
        schema: Schema,
        nullDefault: JSONValue? = nil,
        read: @escaping @Sendable (Model) -> JSONValue,
        assign: @escaping @Sendable (Model, JSONValue) -> Void,
        rule: (@Sendable (Model, JSONValue) -> String?)? = nil
    ) {
        self.name = name
        self.schema = nullDefault == nil ? schema : .nullable(schema)
        self.nullDefault = nullDefault
        self.read = read
        self.assign = assign
        self.rule = rule
        self.isWrittenThrough = false
        self.collaborativeText = nil
        self.textRule = nil
    }

    private init(
        writtenThrough name: String, schema: Schema, nullDefault: JSONValue?, read: @escaping @Sendable (Model) -> JSONValue,
        rule: (@Sendable (Model, JSONValue) -> String?)?, collaborativeText: (@Sendable (Model) -> CollaborativeText?)? = nil,
        textRule: (@Sendable (String) -> String?)? = nil
    ) {
        self.name = name
        self.schema = nullDefault == nil ? schema : .nullable(schema)
        self.nullDefault = nullDefault
        self.read = read
        self.assign = { _, _ in }
        self.rule = rule
        self.isWrittenThrough = true
        self.collaborativeText = collaborativeText
        self.textRule = textRule
    }

    /// The same input, marked as a secret (a password): its value is still in the live snapshots
    /// (it is the session's own), but never reaches the store in plain text — the persisted state
    /// keeps it sealed with the server's sealing key (nodes sharing a store share one; without,
    /// a restart shows it as the view model starts it, empty). What is sealed is the state's
    /// member named like the input, as the default state and `.inputs(and:)` keep it: a
    /// `persists:` of your own that stores the value under another name stores it as it is. Its
    /// versions are logged with
    /// the value masked (in every string that contains it, too), as `/versions` shows them. The
    /// screen catalogue (`GET /api/views`) lists it in `sensitiveInputs`, so tools mask it.
    ///
    /// ```swift
    /// .string("password", \.password, maxLength: 256).sensitive()
    /// ```
    public func sensitive() -> Self {
        var input = self
        input.isSensitive = true
        return input
    }

    /// The same input, written only by users `access` lets (on top of the view model's own rule,
    /// ``ViewModelDeclaration/writable(by:)``); a PATCH or text edit of it by anyone else is
    /// refused (401 or 403) and changes nothing.
    ///
    /// ```swift
    /// .string("title", \.title, maxLength: 200).writable(by: .role("editor"))
    /// ```
    public func writable(by access: Access<Model>) -> Self {
        var input = self
        input.writeAccess = access
        return input
    }

    /// An input two-way bound to a shared model (the view model's `name` is the model's `name`,
    /// in both directions): `read` shows the model's value, and a checked write —
    /// `null` already replaced by `nullDefault` — goes to the declaration's ``WriteThrough``,
    /// which commits it to the model before the write is answered. Nothing is assigned to the
    /// view model itself: it shows the model.
    public static func writtenThrough(
        _ name: String, schema: Schema, nullDefault: JSONValue? = nil, read: @escaping @Sendable (Model) -> JSONValue,
        rule: (@Sendable (Model, JSONValue) -> String?)? = nil
    ) -> Self {
        Self(writtenThrough: name, schema: schema, nullDefault: nullDefault, read: read, rule: rule)
    }

    /// A string input several users edit at once: the collaborative text `text` gives (one of a
    /// shared record's, ``SharedCollection/collaborativeText(id:key:)``; nil once it is gone).
    ///
    /// The snapshot shows the text. Clients edit it with text operations
    /// (`POST /api/views/{path}/inputs/{name}/ops`) that the server merges with concurrent ones,
    /// and watchers receive the edits on the event stream, so a client applies them without
    /// resetting what its user is typing. A PATCH of the input still works: a whole value,
    /// written through (the declaration's ``WriteThrough``) and ordered like an edit. Every text
    /// it makes, by either way, is checked against `maxLength` and `rule`, which judges the text
    /// alone (it runs where the edits are ordered, away from the view model).
    ///
    /// ```swift
    /// .collaborative("text", maxLength: 2000, text: { $0.notes.collaborativeText(id: $0.id, key: "text") })
    /// ```
    public static func collaborative(
        _ name: String, maxLength: Int, text: @escaping @Sendable (Model) -> CollaborativeText?,
        rule: (@Sendable (String) -> String?)? = nil
    ) -> Self {
        var modelRule: (@Sendable (Model, JSONValue) -> String?)?
        if let rule { modelRule = { _, value in rule(value.stringValue ?? "") } }
        return Self(
            writtenThrough: name, schema: .string(maxLength: maxLength), nullDefault: nil,
            read: { .string(text($0)?.value ?? "") }, rule: modelRule, collaborativeText: text, textRule: rule
        )
    }

    /// Checks `value` and returns its effective value (`null` replaced by ``nullDefault``) and
    /// the assignment; throws without changing anything.
    package func prepare(_ value: JSONValue, on model: Model) throws(ViewModelError) -> (value: JSONValue, assign: () -> Void) {
        if let reason = schema.violation(by: value) { throw .invalidInput(name: name, reason: reason) }
        let effective = value == .null ? (nullDefault ?? .null) : value
        if let rule, let reason = rule(model, effective) { throw .invalidInput(name: name, reason: reason) }
        let assign = assign
        return (effective, { assign(model, effective) })
    }

    /// The check of a collaborative input's texts: the reason its schema or rule refuses one.
    /// Its rule ignores the view model (see ``collaborative(_:maxLength:text:rule:)``).
    var textCheck: @Sendable (String) -> String? {
        let schema = schema
        let textRule = textRule
        return { text in schema.violation(by: .string(text)) ?? textRule?(text) }
    }
}

extension InputDeclaration {
    /// A string input bound to a property, at most `maxLength` characters, optionally
    /// matching `pattern` (unanchored, as in JSON Schema).
    public static func string(
        _ name: String,
        _ keyPath: ReferenceWritableKeyPath<Model, String> & Sendable,
        maxLength: Int = 1024,
        pattern: String? = nil
    ) -> Self {
        Self(
            name, schema: .string(maxLength: maxLength, pattern: pattern),
            read: { .string($0[keyPath: keyPath]) },
            assign: { model, value in model[keyPath: keyPath] = value.stringValue ?? "" }
        )
    }

    /// An integer input bound to a property, limited to `range`, with an optional state rule.
    public static func integer(
        _ name: String,
        _ keyPath: ReferenceWritableKeyPath<Model, Int> & Sendable,
        in range: ClosedRange<Int>? = nil,
        rule: (@Sendable (Model, Int) -> String?)? = nil
    ) -> Self {
        Self(
            name, schema: .integer(minimum: range?.lowerBound, maximum: range?.upperBound),
            read: { .int($0[keyPath: keyPath]) },
            assign: { model, value in model[keyPath: keyPath] = value.intValue ?? 0 },
            rule: rule.map(Self.integerRule)
        )
    }

    private static func integerRule(
        _ rule: @escaping @Sendable (Model, Int) -> String?
    ) -> @Sendable (Model, JSONValue) -> String? {
        { model, value in rule(model, value.intValue ?? 0) }
    }

    /// A boolean input bound to a property.
    public static func boolean(_ name: String, _ keyPath: ReferenceWritableKeyPath<Model, Bool> & Sendable) -> Self {
        Self(
            name, schema: .boolean,
            read: { .bool($0[keyPath: keyPath]) },
            assign: { model, value in if case .bool(let flag) = value { model[keyPath: keyPath] = flag } }
        )
    }

    /// An input that is one of an enumeration's raw values; when `nullDefault` is given, a
    /// `null` write sets that value (a field cleared goes back to its default).
    public static func enumeration<Value: RawRepresentable & CaseIterable & Sendable>(
        _ name: String,
        _ keyPath: ReferenceWritableKeyPath<Model, Value> & Sendable,
        nullDefault: Value? = nil
    ) -> Self where Value.RawValue == String {
        Self(
            name, schema: .enumeration(Value.allCases.map(\.rawValue)),
            nullDefault: nullDefault.map { .string($0.rawValue) },
            read: { .string($0[keyPath: keyPath].rawValue) },
            assign: { model, value in
                if let raw = value.stringValue, let case_ = Value(rawValue: raw) { model[keyPath: keyPath] = case_ }
            }
        )
    }
}
