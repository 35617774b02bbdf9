import BinderyRuntime
import Testing

/// Drives one view model through a script of writes and commands and asserts, after every
/// step, exactly how its snapshot changed (in the spirit of TCA's `TestStore`).
///
/// Each step takes a closure that edits the previous snapshot into the expected one
/// (`$0.outputs["count"] = 3`, one element of a list: `$0.outputs["items"]?[0]?["completed"] = true`);
/// the step fails when the real snapshot differs in any member, asserted or not, so a test cannot
/// miss a change. Every snapshot is also checked against the view model's declared schemas.
/// ``finish(sourceLocation:)`` fails while an execution or the activation work (``activate(sourceLocation:_:)``)
/// still runs. Time moves only when the test advances its own clock;
/// ``receive(_:sourceLocation:_:)`` then waits for one command's work to end and asserts what it
/// changed, ``settle(sourceLocation:_:)`` lets all work run until nothing changes. With
/// ``isExhaustive`` false, a step asserts only the members it names.
///
/// Given a `viewer`, the script plays as that session's user: every write, command and render
/// sees it as `Viewer.current`, so the write rules of inputs and commands apply as over HTTP (a
/// refusal is `ViewModelError.signInRequired` or `ViewModelError.forbidden(reason:)`), commands
/// it may not run show disabled, and a viewer made with a sign-in closure (`Viewer(user:signIn:)`)
/// lets a sign-in command run. Read rules guard a session's paths, which the tester does not take:
/// test them over HTTP.
///
///
/// ```swift
/// let viewer = Viewer(user: User(id: "u1", name: "Ada"))
/// let tester = ViewModelTester(TodosViewModel(lists: .inMemory("todos"), viewer: viewer), viewer: viewer)
/// ```
@MainActor
public final class ViewModelTester<Model: ViewModel> {
    /// The view model under test.
    public let model: Model
    /// Who the script plays as (`Viewer.current` during every step); nil: nobody, and no access
    /// rule is checked.
    public let viewer: Viewer?
    /// The snapshot as the test last asserted it.
    public private(set) var state: SnapshotState
    private var running: [Task<Command.Outcome, Never>] = []
    /// The view model's activation work (`whileActive()`), once the test activated it.
    var activation: Task<Void, Never>?
    /// Whether the activation work has started and not yet ended.
    var isActive = false
    /// Whether every step must describe every change of the snapshot (the default), or only
    /// the members it names: set false in an integration test that cares about a few outputs of a
    /// large view model. Schemas are checked either way.
    public var isExhaustive = true

    /// Starts testing `model`; its first snapshot is the state later steps change.
    ///
    /// `path` is where a server would serve it (`list/items/1`), for the paths and pages
    /// derived from its routes; by default its declaration's name in lower case. `initial`
    /// asserts that first snapshot exactly.
    public init(
        _ model: Model, path: String? = nil, viewer: Viewer? = nil, sourceLocation: SourceLocation = #_sourceLocation,
        initial: ((SnapshotState) -> Void)? = nil
    ) {
        if let path { model.commandStates.servedPath = path }
        self.model = model
        self.viewer = viewer
        state = SnapshotState(Viewer.$current.withValue(viewer) { model.snapshotMembers })
        Self.checkSchemas(of: model, sourceLocation: sourceLocation)
        initial?(state)
    }

    /// Writes inputs (a JSON merge patch; written-through inputs are committed to their shared
    /// model) and asserts the change `update` describes.
    public func write(
        _ patch: JSONValue, sourceLocation: SourceLocation = #_sourceLocation, _ update: (inout SnapshotState) -> Void
    ) async throws {
        try await asViewer { try await model.write(patch) }
        assertChange(update, sourceLocation: sourceLocation)
    }

    /// A write the view model refuses with `error`; asserts that nothing changed.
    public func refuseWrite(
        _ patch: JSONValue, with error: ViewModelError, sourceLocation: SourceLocation = #_sourceLocation
    ) async {
        do {
            try await asViewer { try await model.write(patch) }
            Issue.record("the write was not refused (expected \(error))", sourceLocation: sourceLocation)
        } catch let refusal {
            #expect(refusal as? ViewModelError == error, sourceLocation: sourceLocation)
        }
        assertChange({ _ in }, sourceLocation: sourceLocation)
    }

    /// Executes a command and asserts the change `update` describes, right after the start:
    /// the whole effect of an immediate command, `executing: true` of a deferred one.
    ///
    /// Returns an immediate command's outcome; nil for deferred work, which goes on running
    /// until the test lets it finish (``settle(sourceLocation:_:)``).
    @discardableResult
    public func execute(
        _ name: String, _ argument: JSONValue? = nil, sourceLocation: SourceLocation = #_sourceLocation,
        _ update: (inout SnapshotState) -> Void
    ) throws -> Command.Outcome? {
        let (_, started) = try Viewer.$current.withValue(viewer) { try model.startCommand(name, argument: argument) }
        assertChange(update, sourceLocation: sourceLocation)
        switch started {
        case .finished(let outcome): return outcome
        case .running(let task):
            running.append(task)
            return nil
        }
    }

    /// A command the view model refuses with `error`; asserts that nothing changed.
    public func refuse(
        _ name: String, _ argument: JSONValue? = nil, with error: ViewModelError,
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        #expect(throws: error, sourceLocation: sourceLocation) {
            _ = try Viewer.$current.withValue(self.viewer) { try self.model.startCommand(name, argument: argument) }
        }
        assertChange({ _ in }, sourceLocation: sourceLocation)
    }

    /// Cancels a command's running executions, waits until their work has stopped, and asserts
    /// the change `update` describes.
    public func cancel(
        _ name: String, sourceLocation: SourceLocation = #_sourceLocation, _ update: (inout SnapshotState) -> Void
    ) async {
        let stopping = model.command(named: name)?.cancelAll() ?? []
        #expect(!stopping.isEmpty, "nothing of '\(name)' was running", sourceLocation: sourceLocation)
        for task in stopping { _ = await task.value }
        assertChange(update, sourceLocation: sourceLocation)
    }

    /// Lets the view model's pending work run (after the test advanced its clock) until nothing
    /// more happens, then asserts the change `update` describes. Never sleeps in real time.
    public func settle(sourceLocation: SourceLocation = #_sourceLocation, _ update: (inout SnapshotState) -> Void) async {
        await runUntilQuiet()
        running.removeAll { task in task.isCancelled }
        assertChange(update, sourceLocation: sourceLocation)
    }

    /// Waits until the command `name` has ended (its work and what the work changed), then
    /// asserts the change `update` describes.
    ///
    /// Unlike ``settle(sourceLocation:_:)``, which lets everything run until nothing changes, it
    /// waits for that command alone. Work that waits for the test's clock must be let go first
    /// (advance the clock): a command still executing after its work had every chance to run
    /// fails the step. Never sleeps in real time.
    ///
    /// ```swift
    /// try tester.execute("load") { $0.commands["load"]?.executing = true }
    /// clock.advance(by: .seconds(1))
    /// await tester.receive("load") {
    ///     $0.commands["load"]?.executing = false
    ///     $0.outputs["items"] = ["a", "b"]
    /// }
    /// ```
    public func receive(
        _ name: String, sourceLocation: SourceLocation = #_sourceLocation, _ update: (inout SnapshotState) -> Void
    ) async {
        guard let command = model.command(named: name) else {
            Issue.record("no command named '\(name)'", sourceLocation: sourceLocation)
            return
        }
        for _ in 0..<1_000 where command.isExecuting { await yieldToOthers() }
        #expect(
            !command.isExecuting, "'\(name)' is still executing: does its work wait for the test's clock?",
            sourceLocation: sourceLocation
        )
        running.removeAll { task in task.isCancelled }
        assertChange(update, sourceLocation: sourceLocation)
    }

    /// Ends the script: fails when an execution or the activation work still runs (and cancels
    /// that work), or when the snapshot changed unasserted.
    public func finish(sourceLocation: SourceLocation = #_sourceLocation) {
        let busy = Model.declaration.commands.map(\.name).filter { model.command(named: $0)?.isExecuting == true }
        #expect(busy.isEmpty, "still executing at the end: \(busy)", sourceLocation: sourceLocation)
        #expect(!isActive, "activation work still running at the end: deactivate or let it end", sourceLocation: sourceLocation)
        if isActive { activation?.cancel() }
        assertChange({ _ in }, sourceLocation: sourceLocation)
    }

    /// Lets other tasks run, on this actor and on the global executor, until neither the
    /// snapshot nor the activation changed for a while. Never sleeps in real time.
    func runUntilQuiet() async {
        var quiet = 0
        var last = (snapshotMembers, isActive)
        for _ in 0..<500 where quiet < 20 {
            await yieldToOthers()
            let now = (snapshotMembers, isActive)
            quiet = now == last ? quiet + 1 : 0
            last = now
        }
    }

    /// Lets the tasks waiting on this actor and on the global executor run once.
    private func yieldToOthers() async {
        await Task.detached(priority: .background) { await Task.yield() }.value
        await Task.yield()
    }

    /// The snapshot's members as the viewer sees them (the commands it may not run are disabled).
    var snapshotMembers: [String: JSONValue] {
        Viewer.$current.withValue(viewer) { model.snapshotMembers }
    }

    /// Runs `body` as the viewer (`Viewer.current`); tasks it starts inherit it.
    func asViewer<T>(_ body: () async throws -> T) async rethrows -> T {
        try await Viewer.$current.withValue(viewer) { try await body() }
    }

    /// Asserts that the snapshot is the last asserted one edited by `update` (not exhaustive:
    /// that the members `update` sets have those values), then takes it.
    func assertChange(_ update: (inout SnapshotState) -> Void, sourceLocation: SourceLocation) {
        let actual = SnapshotState(snapshotMembers)
        var expected = isExhaustive ? state : actual
        update(&expected)
        let differences = expected.differences(from: actual)
        #expect(
            differences.isEmpty,
            "snapshot differs from the expected one:\n\(differences.joined(separator: "\n"))",
            sourceLocation: sourceLocation
        )
        Self.checkSchemas(of: model, sourceLocation: sourceLocation)
        state = actual
    }

    private static func checkSchemas(of model: Model, sourceLocation: SourceLocation) {
        let schema = model.schema
        let members = Viewer.$current.withValue(Viewer.current) { model.snapshotMembers }
        for (shape, member) in [(schema.inputsShape, "inputs"), (schema.outputsShape, "outputs"), (schema.commandsShape, "commands")] {
            let violation = shape.violation(by: members[member] ?? .null)
            #expect(violation == nil, "\(member) do not match the declaration: \(violation ?? "")", sourceLocation: sourceLocation)
        }
    }
}
