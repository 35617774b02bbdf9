/// What a view model keeps across restarts: small, re-derivable state (its inputs by default,
/// plus the command results that cannot be re-derived). Outputs are derived again on load.
public struct PersistedState<Model: AnyObject>: Sendable {
    let save: @Sendable (Model) -> JSONValue
    let restore: @Sendable (Model, JSONValue) -> Void

    /// Persists what `save` returns and puts it back with `restore`.
    public init(save: @escaping @Sendable (Model) -> JSONValue, restore: @escaping @Sendable (Model, JSONValue) -> Void) {
        self.save = save
        self.restore = restore
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
            }
        )
    }
}

/// One value a view model keeps across restarts besides its inputs: a property, by name.
public struct PersistedValue<Model: AnyObject>: Sendable {
    /// The name it is kept under (not an input's).
    public let name: String
    let save: @Sendable (Model) -> JSONValue
    let restore: @Sendable (Model, JSONValue) -> Void

    /// Keeps the property at `keyPath` as JSON; a kept value that no longer decodes is skipped.
    public static func value<Value: Codable & Sendable>(
        _ name: String, _ keyPath: ReferenceWritableKeyPath<Model, Value> & Sendable
    ) -> Self {
        PersistedValue(
            name: name,
            save: { model in JSONValue(encoding: model[keyPath: keyPath]) ?? .null },
            restore: { model, json in
                if let value = json.decoded(as: Value.self) { model[keyPath: keyPath] = value }
            }
        )
    }
}
