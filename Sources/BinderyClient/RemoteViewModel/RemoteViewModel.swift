import BinderyRuntime
import Observation

/// A view model on the server, followed by this client: an `@Observable` object whose snapshot is
/// the server's latest version, with the inputs this client is writing laid over it.
///
/// Read outputs with ``output(_:as:)``, inputs with ``input(_:as:)``; write an input by assigning
/// ``subscript(input:)`` (coalesced PATCHes, one in flight) or with ``write(_:)``; execute a
/// command with ``run(_:with:waitingUpTo:)``. Run ``follow()`` (in SwiftUI, `.task { await
/// remote.follow() }`) to keep the snapshot current. A refused write or command shows in
/// ``problem``; nothing here crashes on what the server answers.
@MainActor @Observable
public final class RemoteViewModel {
    /// The view model's path (`"counter"`, `"list/items/42/edit"`).
    public let path: String
    /// The snapshot as shown: the server's last version, with the inputs still being written laid
    /// over `inputs`; nil until the first read.
    public private(set) var snapshot: JSONValue?
    /// The last problem the server answered a write or command of this view model with; a View
    /// shows it (next to ``RemoteProblem/field`` when it names one) until ``dismissProblem()``.
    public private(set) var problem: RemoteProblem?
    /// The state of the event stream (``follow()``).
    public internal(set) var connection: Connection = .idle

    /// The last snapshot the server sent.
    @ObservationIgnored var server: JSONValue?
    @ObservationIgnored var writes = PendingWrites()
    @ObservationIgnored var writer: Task<Void, Never>?
    @ObservationIgnored var writeWaiters: [(last: Int, continuation: CheckedContinuation<Void, any Error>)] = []
    /// The collaborative inputs (the snapshot's `texts`), each sent as text operations.
    @ObservationIgnored var texts: [String: SharedText] = [:]
    @ObservationIgnored var textSenders: [String: Task<Void, Never>] = [:]
    @ObservationIgnored var textWaiters: [(input: String, last: Int, continuation: CheckedContinuation<Void, any Error>)] = []
    /// Collaborative inputs to read again whole, dropping what is pending (this client's model diverged).
    @ObservationIgnored var textsToReset: Set<String> = []
    /// For tests: how many answers to text operations to lose, as a cut connection would.
    @ObservationIgnored package var textAnswersToLose = 0
    @ObservationIgnored var watchers: [Int: AsyncStream<JSONValue>.Continuation] = [:]
    @ObservationIgnored var changeWaiters: [Int: AsyncStream<Void>.Continuation] = [:]
    @ObservationIgnored var nextWatcher = 0
    @ObservationIgnored var streamInterruption: (@Sendable () -> Void)?
    @ObservationIgnored var streamInterrupted = false
    /// What the event stream brought, for tests: `snapshot 3`, `patch 4`, `reopen`.
    @ObservationIgnored package private(set) var streamLog: [String] = []
    @ObservationIgnored let transport: Transport
    @ObservationIgnored let backoff = Backoff()

    init(path: String, transport: Transport) {
        self.path = path
        self.transport = transport
    }

    /// The version of the snapshot shown (the server's), or nil before the first read.
    public var version: Int? { snapshot?.objectValue?["version"]?.intValue }

    /// The value of input `name` as shown (what this client wrote, until the server answers).
    /// Assigning writes it: PATCHes are coalesced, one in flight; a refusal shows in ``problem``.
    /// A collaborative text is sent as text operations instead, and shows others' edits merged in.
    public subscript(input name: String) -> JSONValue? {
        get { snapshot?.objectValue?["inputs"]?.objectValue?[name] }
        set { _ = enqueue([name: newValue ?? .null]) }
    }

    /// Input `name` decoded as `type` (`String`, `Int`, `Bool`, a `Decodable` of yours), or nil.
    public func input<Value: Decodable>(_ name: String, as type: Value.Type = Value.self) -> Value? {
        self[input: name]?.decoded(as: type)
    }

    /// Output `name` as JSON, or nil when the snapshot has none.
    public func output(_ name: String) -> JSONValue? {
        snapshot?.objectValue?["outputs"]?.objectValue?[name]
    }

    /// Output `name` decoded as `type` (`Bool`, `String`, `[Item]`, …), or nil.
    public func output<Value: Decodable>(_ name: String, as type: Value.Type = Value.self) -> Value? {
        output(name)?.decoded(as: type)
    }

    /// The state of command `name` (enabled, executing, its last error), or nil.
    public func command(_ name: String) -> CommandStatus? {
        CommandStatus(snapshot?.objectValue?["commands"]?.objectValue?[name])
    }

    /// Forgets ``problem`` (the View showed it).
    public func dismissProblem() {
        problem = nil
    }

    /// Reads the current snapshot (`GET /api/views/{path}`). Throws the server's problem (401 for
    /// an unknown session, 404 for no such view model) or the network's error.
    public func refresh() async throws {
        let answer = try await transport.send("GET", viewTarget)
        guard answer.succeeded, let snapshot = answer.json else { throw answer.problem }
        accept(snapshot)
    }

    /// `/api/views/{path}`.
    var viewTarget: String { "/api/views/" + path }

    /// Takes a snapshot the server sent, if it is newer than the one held; answers whether it was.
    @discardableResult
    func accept(_ snapshot: JSONValue) -> Bool {
        guard let version = snapshot.objectValue?["version"]?.intValue else { return false }
        if let held = server?.objectValue?["version"]?.intValue, version <= held { return false }
        server = snapshot
        takeTexts(of: snapshot)
        show()
        for watcher in watchers.values { watcher.yield(snapshot) }
        return true
    }

    /// Records a problem to show.
    func report(_ problem: RemoteProblem) {
        self.problem = problem
        notifyChange()
    }

    /// Recomputes ``snapshot``: the server's, with the inputs being written laid over it (and
    /// each collaborative text as this client holds it: others' edits merged into its own).
    func show() {
        guard var shown = server?.objectValue else { return }
        var overlay = writes.shown
        for (name, text) in texts { overlay[name] = .string(text.local) }
        if !overlay.isEmpty {
            var inputs = shown["inputs"]?.objectValue ?? [:]
            inputs.merge(overlay) { _, mine in mine }
            shown["inputs"] = .object(inputs)
        }
        snapshot = .object(shown)
        notifyChange()
    }

    /// Adds a line to ``streamLog``.
    func log(_ line: String) {
        streamLog.append(line)
    }
}
