import BinderyRuntime
import Testing

extension ViewModelTester {
    /// Starts testing `model` with `state` put back into it, as a server restores a session: the
    /// state as the store kept it at persisted version `version` (by default the declaration's
    /// current one: what ``persistedState`` gives), read through the declaration's migrations and
    /// checked to lose nothing. Throws what would stop a server from starting on it
    /// (`PersistedStateError`): a test of a migration, or of a corpus of stored states.
    ///
    /// ```swift
    /// let tester = try ViewModelTester(CounterViewModel(), restoring: ["count": 7, "step": 2], storedAtVersion: 1)
    /// #expect(tester.persistedState == ["total": 7, "step": 2])
    /// ```
    ///
    /// A round trip, as a restart would make it: what a script left, restored into a new view model.
    ///
    /// ```swift
    /// let restarted = try ViewModelTester(TodosViewModel(), restoring: todos.persistedState)
    /// #expect(restarted.state == todos.state)
    /// ```
    public convenience init(
        _ model: Model, restoring state: JSONValue, storedAtVersion version: Int = Model.declaration.persistedShape.version,
        path: String? = nil, viewer: Viewer? = nil, sourceLocation: SourceLocation = #_sourceLocation,
        initial: ((SnapshotState) -> Void)? = nil
    ) throws(PersistedStateError) {
        let read = try Model.declaration.persistedShape.read(state, storedAtVersion: version)
        Viewer.$current.withValue(viewer) { model.restorePersistedState(read) }
        self.init(model, path: path, viewer: viewer, sourceLocation: sourceLocation, initial: initial)
    }

    /// What the view model would store now (its declaration's `persists:`), as JSON: what a
    /// restart or a deploy gets back, through ``init(_:restoring:storedAtVersion:path:viewer:sourceLocation:initial:)``.
    public var persistedState: JSONValue { model.persistedState }
}
