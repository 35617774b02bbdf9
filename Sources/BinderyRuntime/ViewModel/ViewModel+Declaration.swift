/// What Bindery does with a view model, derived from its declaration: snapshots, writes,
/// commands and children.
extension ViewModel {
    /// The members every snapshot of the view model has: `inputs`, `outputs`, `commands`, and
    /// `texts` (each collaborative input's revision) when it has collaborative inputs.
    public var snapshotMembers: [String: JSONValue] {
        let declaration = Self.declaration
        var inputs: [String: JSONValue] = [:]
        var texts: [String: JSONValue] = [:]
        for input in declaration.inputs {
            guard let collaborative = input.collaborativeText else {
                inputs[input.name] = input.read(self)
                continue
            }
            // The text and its revision from one read, noted for the edits event.
            let text = collaborative(self)
            let current = text?.read()
            inputs[input.name] = .string(current?.text ?? "")
            texts[input.name] = .int(current?.revision ?? 0)
            if let text, let current { ShownTexts.collecting?.add(input: input.name, text: text, revision: current.revision) }
        }
        var outputs: [String: JSONValue] = [:]
        for output in declaration.outputs { outputs[output.name] = output.render(self) }
        var commands: [String: JSONValue] = [:]
        for command in declaration.commands {
            commands[command.name] = state(of: command).json(condition: command.enabled(self) && mayRun(command))
        }
        var members: [String: JSONValue] = ["inputs": .object(inputs), "outputs": .object(outputs), "commands": .object(commands)]
        if !texts.isEmpty { members["texts"] = .object(texts) }
        return members
    }

    /// The view model's body as a child in a collection output: its id, path and snapshot members.
    package func childJSON(id: String, path: String) -> JSONValue {
        var members = ShownTexts.collecting?.within(path: path) { snapshotMembers } ?? snapshotMembers
        members["id"] = .string(id)
        members["path"] = .string(path)
        return .object(members)
    }

    /// Whether its snapshots show collaborative texts (its own or its children's).
    var showsCollaborativeTexts: Bool { Self.declaration.showsCollaborativeTexts }

    /// The names of its sensitive inputs (``InputDeclaration/sensitive()``).
    var sensitiveInputNames: [String] { Self.declaration.inputs.filter(\.isSensitive).map(\.name) }

    /// Whether its read rule depends on the view model (``Access/when(_:)``).
    static var readRuleIsConditional: Bool { declaration.readAccess.summary.conditional }

    /// The collaborative input `name` of this view model and its text, if it has one.
    package func collaborativeInput(_ name: String) -> (text: CollaborativeText, check: @Sendable (String) -> String?)? {
        guard let input = Self.declaration.inputs.first(where: { $0.name == name }), let text = input.collaborativeText?(self)
        else { return nil }
        return (text, input.textCheck)
    }

    /// The value of the output `name` as the snapshot shows it.
    public func output(_ name: String) -> JSONValue? {
        Self.declaration.outputs.first { $0.name == name }?.render(self)
    }

    /// Checks a JSON merge patch of inputs and returns its assignment and the checked values of
    /// its written-through inputs; all or nothing.
    package func prepareWrite(_ patch: JSONValue) throws(ViewModelError) -> (apply: () -> Void, shared: [String: JSONValue]) {
        guard let members = patch.objectValue else { throw .patchNotAnObject }
        try checkWrite(by: Viewer.current, inputs: members.keys.sorted())
        let inputs = Self.declaration.inputs
        var assignments: [() -> Void] = []
        var shared: [String: JSONValue] = [:]
        for (name, value) in members.sorted(by: { $0.key < $1.key }) {
            guard let input = inputs.first(where: { $0.name == name }) else { throw .unknownInput(name: name) }
            let prepared = try input.prepare(value, on: self)
            if input.isWrittenThrough { shared[name] = prepared.value } else { assignments.append(prepared.assign) }
        }
        return ({ assignments.forEach { $0() } }, shared)
    }

    /// Commits the checked values of written-through inputs to the shared model (the
    /// declaration's ``WriteThrough``); nothing when there are none.
    package nonisolated(nonsending) func commitShared(_ values: [String: JSONValue], conditional: Bool) async throws(ViewModelError) {
        guard !values.isEmpty, let writeThrough = Self.declaration.writeThrough else { return }
        try await writeThrough.commit(self, SharedWrite(values: values, isConditional: conditional))
    }

    /// Writes inputs from a JSON merge patch; all or nothing (for in-process callers and tests).
    /// Written-through inputs are committed to their shared model first.
    public nonisolated(nonsending) func write(_ patch: JSONValue) async throws(ViewModelError) {
        let prepared = try prepareWrite(patch)
        try await commitShared(prepared.shared, conditional: false)
        prepared.apply()
    }

    /// The live state of the command `name`, if the view model declares one.
    public func command(named name: String) -> Command? {
        Self.declaration.commands.first { $0.name == name }.map(state(of:))
    }

    /// Checks the argument and starts an execution of the command `name` on `isolation`.
    ///
    /// Throws without changing anything when the command is unknown, the argument is wrong, or
    /// the command's condition or policy refuses it.
    package func startCommand(
        _ name: String, argument: JSONValue?, isolation: isolated (any Actor)? = #isolation
    ) throws(ViewModelError) -> (Command, Command.Started) {
        guard let declaration = Self.declaration.commands.first(where: { $0.name == name }) else {
            throw .unknownCommand(name: name)
        }
        try checkWrite(by: Viewer.current, command: name)
        let work = try declaration.work(for: self, argument: argument)
        let command = state(of: declaration)
        return (command, try command.start(work, condition: declaration.enabled(self), isolation: isolation))
    }

    /// Executes the command `name` and waits for its end (for in-process callers and tests);
    /// cancelling the caller cancels the execution.
    public func execute(
        _ name: String, _ argument: JSONValue? = nil, isolation: isolated (any Actor)? = #isolation
    ) async throws(ViewModelError) -> Command.Outcome {
        switch try startCommand(name, argument: argument, isolation: isolation).1 {
        case .finished(let outcome): return outcome
        case .running(let task):
            return await withTaskCancellationHandler {
                await task.value
            } onCancel: {
                task.cancel()
            }
        }
    }

    /// The child view model at `path` below this one (e.g. `["items", "42"]`), if any.
    ///
    /// A parent creates its children: the child for the next page comes from here.
    package func child(at path: ArraySlice<String>) -> (any ViewModel)? {
        guard let route = route(for: path) else { return nil }
        let length = route.schema.length
        guard let child = route.resolve(self, path[path.startIndex + length - 1]) else { return nil }
        return path.count == length ? child : child.child(at: path.dropFirst(length))
    }

    /// Loads what the child at `path` needs before ``child(at:)`` can find it, so that a shared
    /// URL such as `list/items/3` works in a brand-new session.
    package func prepareChild(at path: ArraySlice<String>) async {
        guard let route = route(for: path) else { return }
        await route.prepare(self)
    }

    /// The route addressing `path` (see ``ViewModelSchema/child(for:)``).
    private func route(for path: ArraySlice<String>) -> ChildRoute<Self>? {
        ViewModelSchema.Child.route(for: path, in: Self.declaration.children, \.schema)
    }

    private func state(of declaration: CommandDeclaration<Self>) -> Command {
        commandStates.state(declaration.name, policy: declaration.policy)
    }
}

extension ViewModel {
    /// The current values of the inputs, as a snapshot shows them.
    public var inputValues: [String: JSONValue] { snapshotMembers["inputs"]?.objectValue ?? [:] }
    /// The current values of the outputs, as a snapshot shows them.
    public var outputs: [String: JSONValue] { snapshotMembers["outputs"]?.objectValue ?? [:] }
    /// Whether the command `name` may be executed now, as a snapshot shows it.
    public func isEnabled(_ name: String) -> Bool {
        snapshotMembers["commands"]?.objectValue?[name]?.objectValue?["enabled"] == true
    }
}

extension ViewModel {
    /// The state the view model keeps across restarts (its declaration's `persists`).
    package var persistedState: JSONValue { Self.declaration.persistedState(of: self) }

    /// The shape its persisted state is stored with.
    package var persistedShape: PersistedShape { Self.declaration.persistedShape }

    /// Puts persisted state back into this view model: a fresh one after a restart, or a live one
    /// whose uncommitted change is rolled back or which another node changed. It must reset every
    /// persisted member, including to "nothing" (the list with no load clears its cells).
    package func restorePersistedState(_ state: JSONValue) {
        Self.declaration.restore(state, into: self)
    }

    /// The name of a deferred command that is executing, if any (on this node or, as the store
    /// says, on another).
    package var runningDeferredCommand: String? {
        Self.declaration.commands.first { $0.isDeferred && state(of: $0).isExecutingUntracked }?.name
    }

    /// The name of a deferred command that this node is executing, if any: its lease is renewed.
    package var deferredCommandRunningHere: String? {
        Self.declaration.commands.first { $0.isDeferred && state(of: $0).isExecutingHereUntracked }?.name
    }

    /// The name of a deferred command the store says another node is executing, if any.
    package var deferredCommandRunningElsewhere: String? {
        Self.declaration.commands.first { $0.isDeferred && state(of: $0).isRunningElsewhere }?.name
    }

    /// Shows the deferred command the store records as running (`running`, started by another
    /// node) as executing, and every other one as not, unless this node runs it.
    package func showStoredCommand(running: String?) {
        for command in Self.declaration.commands where command.isDeferred {
            state(of: command).markRunningElsewhere(command.name == running)
        }
    }
}
