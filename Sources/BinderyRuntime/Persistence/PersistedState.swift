/// What a view model keeps across restarts: small, re-derivable state (its inputs by default,
/// plus the command results that cannot be re-derived). Outputs are derived again on load.
///
/// What persists has a shape (``PersistedShape``) that the store keeps beside every state: when
/// the shape changes, list the change as a migration (``migrations(_:)``) so stored state is read
/// through it; without one, state that would lose a member is never read nor overwritten.
public struct PersistedState<Model: AnyObject>: Sendable {
    let save: @Sendable (Model) -> JSONValue
    let restore: @Sendable (Model, JSONValue) -> Void
    /// The kept values besides the inputs (``inputs(and:)``); nil for a custom `save`/`restore`,
    /// whose members Bindery does not know.
    let values: [PersistedValue<Model>]?
    /// The shape's history, oldest first.
    private(set) var migrationSteps: [PersistedMigration] = []

    /// Persists what `save` returns and puts it back with `restore`. Bindery cannot see inside
    /// it: only its version (its migrations) tells a changed shape, and every stored state of it
    /// is checked at start by migrating it.
    public init(save: @escaping @Sendable (Model) -> JSONValue, restore: @escaping @Sendable (Model, JSONValue) -> Void) {
        self.save = save
        self.restore = restore
        self.values = nil
    }

    private init(
        save: @escaping @Sendable (Model) -> JSONValue, restore: @escaping @Sendable (Model, JSONValue) -> Void,
        values: [PersistedValue<Model>]
    ) {
        self.save = save
        self.restore = restore
        self.values = values
    }

    /// The same state, with the migrations that read state stored by earlier versions of it,
    /// oldest first; the persisted version is their count + 1.
    ///
    /// ```swift
    /// persists: .inputs(and: [.value("total", \.total)]).migrations([.renaming("count", to: "total")])
    /// ```
    public func migrations(_ migrations: [PersistedMigration]) -> Self {
        var declared = self
        declared.migrationSteps = migrations
        return declared
    }
}

extension ViewModelDeclaration {
    /// The state `model` persists, as JSON.
    func persistedState(of model: Model) -> JSONValue {
        persists?.save(model) ?? inputsObject(of: model)
    }

    /// Puts persisted state back into a freshly made `model`.
    func restore(_ state: JSONValue, into model: Model) {
        if let persists {
            persists.restore(model, state)
        } else {
            restoreInputs(from: state, into: model)
        }
    }

    /// `{"<input>": value, ...}`: the default persisted state (sensitive inputs too: the server
    /// seals their members before the state reaches the store).
    package func inputsObject(of model: Model) -> JSONValue {
        .object(Dictionary(uniqueKeysWithValues: inputs.map { ($0.name, $0.read(model)) }))
    }

    /// Writes each input found in `state`, skipping values the declaration no longer accepts.
    package func restoreInputs(from state: JSONValue, into model: Model) {
        for input in inputs {
            guard !input.isWrittenThrough, let value = state.objectValue?[input.name],
                let prepared = try? input.prepare(value, on: model)
            else { continue }
            prepared.assign()
        }
    }

    /// The shape of what it persists: its inputs' schemas and its values' types, or a custom
    /// state's version alone.
    public var persistedShape: PersistedShape {
        PersistedShapes.shape(of: ObjectIdentifier(Model.self)) { makePersistedShape() }
    }

    private func makePersistedShape() -> PersistedShape {
        let migrations = persists?.migrationSteps ?? []
        guard let values = persists == nil ? [] : persists?.values else {
            return PersistedShape(description: "custom", migrations: migrations, isOpaque: true) { _ in nil }
        }
        let kept = inputs.filter { !$0.isWrittenThrough }
        let inputSchemas = Dictionary(kept.map { ($0.name, $0.schema) }) { first, _ in first }
        let writtenThrough = Set(inputs.filter(\.isWrittenThrough).map(\.name))
        var valueShapes: [String: JSONValue] = [:]
        var opaque = false
        for value in values {
            let described = value.describe()
            valueShapes[value.name] = described.shape
            opaque = opaque || described.isOpaque
        }
        let description: JSONValue = [
            "inputs": .object(inputSchemas.mapValues { $0.jsonSchema() }), "values": .object(valueShapes),
        ]
        let checks = Dictionary(values.map { ($0.name, $0.check) }) { first, _ in first }
        let declared = Set(inputSchemas.keys).union(checks.keys)
        return PersistedShape(description: description, migrations: migrations, isOpaque: opaque) { state in
            if state == .null { return nil }
            guard case .object(let members) = state else { return ("(state)", "is not a JSON object") }
            // A stored null is nothing to lose (an input or value that held nothing).
            for (name, value) in members.sorted(by: { $0.key < $1.key }) where value != .null {
                if let schema = inputSchemas[name] {
                    if let reason = schema.violation(by: value) { return (name, "no longer fits its input: \(reason)") }
                } else if let check = checks[name] {
                    if let reason = check(value) { return (name, reason) }
                } else if !writtenThrough.contains(name) {
                    let absent = declared.subtracting(members.keys).sorted()
                    let guess =
                        absent.count == 1 ? " (renamed to `\(absent[0])`? a migration `.renaming(\"\(name)\", to: \"\(absent[0])\")` keeps it)" : ""
                    return (name, "is stored but no longer declared: reading it would drop it\(guess)")
                }
            }
            return nil
        }
    }
}

extension PersistedState {
    /// Keeps the inputs and the view model's own `values` (state that is not derived, such as a
    /// count), as one JSON object.
    ///
    /// ```swift
    /// persists: .inputs(and: [.value("count", \.count)])
    /// ```
    public static func inputs(and values: [PersistedValue<Model>]) -> Self where Model: ViewModel {
        PersistedState(
            save: { model in
                var state = Model.declaration.inputsObject(of: model).objectValue ?? [:]
                for value in values { state[value.name] = value.save(model) }
                return .object(state)
            },
            restore: { model, state in
                Model.declaration.restoreInputs(from: state, into: model)
                for value in values {
                    if let saved = state.objectValue?[value.name] { value.restore(model, saved) }
                }
            },
            values: values
        )
    }
}
