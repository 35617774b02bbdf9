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

    /// `{"<input>": value, ...}`: the default persisted state.
    public func inputsObject(of model: Model) -> JSONValue {
        .object(Dictionary(uniqueKeysWithValues: inputs.map { ($0.name, $0.read(model)) }))
    }

    /// Writes each input found in `state`, skipping values the declaration no longer accepts.
    public func restoreInputs(from state: JSONValue, into model: Model) {
        for input in inputs {
            guard let value = state.objectValue?[input.name], let assign = try? input.prepare(value, on: model) else { continue }
            assign()
        }
    }
}
