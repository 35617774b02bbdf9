import Observation

/// The live state of one command of one view model (ReactiveSwift's `Action`):
/// whether it executes, its last error, and the executions it runs under its policy.
///
/// Its declaration (``CommandDeclaration``) says what the command takes and does; this object
/// enforces the ``CommandPolicy`` for every caller (HTTP, in-process, tests). The last failure
/// of the work is kept as `error` until the next execution starts; a cancelled execution leaves
/// it as it was.
///
/// Snapshots show its state through `json(condition:)`, and the renders that did are told of
/// a change by `CommandReaders`. Its other properties are observable (Observation) for
/// view-model code that reads them; the registrar is made on the first such read.
public final class Command: Observable {
    /// The work of one execution, already checked against the command's argument rules.
    public enum Work {
        /// Work that finishes without waiting (form `clear`, `select`).
        case immediate(() throws(ViewModelError) -> CommandResult)
        /// Work that awaits something, typically the upstream (list `load`).
        case deferred(DeferredWork)
    }

    /// Work that awaits. It runs on the caller's actor (the session's), never concurrently with
    /// it, so it may read and write the view model it belongs to.
    public typealias DeferredWork = nonisolated(nonsending) () async throws -> CommandResult

    /// How one execution ended.
    public typealias Outcome = Result<CommandResult, ExecutionFailure>

    /// How `start(_:condition:isolation:)` went.
    public enum Started {
        /// Immediate work ran to its end.
        case finished(Outcome)
        /// Deferred work is running (or queued) in this task.
        case running(Task<Outcome, Never>)
    }

    /// The command's name, as it appears in snapshots and URLs.
    public let name: String
    /// What happens to an execution while another runs.
    public let policy: CommandPolicy
    /// The failure of the last execution, cleared when a new one starts.
    public private(set) var lastError: ExecutionFailure? {
        get { observed.lastError }
        set { change { $0.lastError = newValue } }
    }
    /// Executions started and not yet ended, queued ones included.
    package private(set) var executionCount: Int {
        get { observed.executionCount }
        set { change { $0.executionCount = newValue } }
    }
    /// Whether the store says another node is running this (deferred) command, under a lease
    /// that has not lapsed: it shows as executing here, and a serial policy refuses a second one.
    package private(set) var isRunningElsewhere: Bool {
        get { observed.isRunningElsewhere }
        set { change { $0.isRunningElsewhere = newValue } }
    }

    /// Everything observable about the command.
    private var status = Status()
    /// The renders whose snapshot showed ``status`` since it last changed.
    private var readers = CommandReaders()
    /// Observation's registrar, made when view-model code first reads the command.
    private var registrar: ObservationRegistrar?

    private var executions: [Int: Task<Outcome, Never>] = [:]
    private var cancelled: Set<Int> = []
    private var queueTail: Task<Outcome, Never>?
    private var nextID = 0
    private var latestID = 0
    private var errorBeforeLatest: ExecutionFailure?
    /// The idempotency key of the newest execution that succeeded, started by a keyed request,
    /// until a committed version shows its end (see ``RequestClaim``): only a deferred command's
    /// successful end claims its request's key, never one that failed or was cancelled.
    package private(set) var succeededClaim: RequestClaim?

    /// Creates the state of a command that has never run.
    package init(_ name: String, policy: CommandPolicy = .serial) {
        self.name = name
        self.policy = policy
    }

    /// Whether an execution is running or waiting, here or on another node.
    public var isExecuting: Bool { executionCount > 0 || isRunningElsewhere }

    /// Whether an execution started on this node is running or waiting.
    package var isExecutingHere: Bool { executionCount > 0 }

    /// ``isExecuting`` for Bindery's own bookkeeping (commits, leases, hibernation): not tracked
    /// by Observation, as no render depends on it.
    var isExecutingUntracked: Bool { status.isExecuting }

    /// ``isExecutingHere`` for Bindery's own bookkeeping, not tracked by Observation.
    var isExecutingHereUntracked: Bool { status.executionCount > 0 }

    /// Whether an execution may start now, given the view model's own condition.
    package func isEnabled(condition: Bool) -> Bool {
        Self.isEnabled(observed, policy: policy, condition: condition)
    }

    private static func isEnabled(_ status: Status, policy: CommandPolicy, condition: Bool) -> Bool {
        guard condition else { return false }
        switch policy {
        case .serial: return !status.isExecuting
        case .queue(let limit): return status.executionCount <= limit
        case .concurrent, .cancelPrevious: return true
        }
    }

    /// The command as a snapshot member: `{"enabled", "executing", "error", "policy"}`. The
    /// render in progress is told when any of it changes (`CommandReaders`).
    package func json(condition: Bool) -> JSONValue {
        readers.noteRead()
        return .object([
            "enabled": .bool(Self.isEnabled(status, policy: policy, condition: condition)),
            "executing": .bool(status.isExecuting),
            "error": status.lastError?.json ?? .null,
            "policy": .string(policy.name),
        ])
    }

    /// ``status`` as view-model code reads it: tracked by Observation.
    private var observed: Status {
        if registrar == nil { registrar = ObservationRegistrar() }
        registrar?.access(self, keyPath: \.status)
        return status
    }

    /// Changes ``status`` and tells whoever read it: Observation's trackings and the renders.
    private func change(_ mutation: (inout Status) -> Void) {
        if let registrar {
            registrar.withMutation(of: self, keyPath: \.status) { mutation(&status) }
        } else {
            mutation(&status)
        }
        readers.changed()
    }

    /// Starts an execution of `work` under the command's policy, on `isolation` (the view
    /// model's actor).
    ///
    /// Throws without changing anything when the policy or `condition` refuses it. Immediate
    /// work has finished when this returns; deferred work runs in the returned task.
    package func start(
        _ work: Work, condition: Bool, isolation: isolated (any Actor)? = #isolation
    ) throws(ViewModelError) -> Started {
        switch policy {
        case .serial where status.isExecuting: throw .commandExecuting(name: name)
        case .queue(let limit) where status.executionCount > limit: throw .commandQueueFull(name: name, limit: limit)
        default: break
        }
        guard condition else { throw .commandDisabled(name: name) }
        switch work {
        case .immediate(let run):
            let before = status.lastError
            lastError = nil
            do {
                return .finished(.success(try run()))
            } catch {
                lastError = before
                throw error
            }
        case .deferred(let run):
            if policy == .cancelPrevious { executions.keys.forEach { cancelled.insert($0) }; executions.values.forEach { $0.cancel() } }
            return .running(launch(run, isolation: isolation))
        }
    }

    /// Records that an execution was interrupted by the process stopping (after a restart), or by
    /// the node running it going away (its lease lapsed).
    package func markInterrupted() {
        isRunningElsewhere = false
        lastError = .interrupted
    }

    /// Records whether another node runs this command now, as the store says (see
    /// ``isRunningElsewhere``). Ignored while an execution of this node runs: that one is ours.
    package func markRunningElsewhere(_ running: Bool) {
        let elsewhere = running && status.executionCount == 0
        guard elsewhere != status.isRunningElsewhere else { return }
        if elsewhere { lastError = nil }
        isRunningElsewhere = elsewhere
    }

    /// Cancels every running and queued execution and returns their tasks, which end once the
    /// work has really stopped. Empty when nothing runs.
    public func cancelAll() -> [Task<Outcome, Never>] {
        cancelled.formUnion(executions.keys)
        executions.values.forEach { $0.cancel() }
        return Array(executions.values)
    }

    private func launch(_ run: @escaping DeferredWork, isolation: isolated (any Actor)?) -> Task<Outcome, Never> {
        nextID += 1
        let id = nextID
        // The error before this burst of executions: a cancelled newest one puts it back.
        if status.executionCount == 0 { errorBeforeLatest = status.lastError }
        latestID = id
        lastError = nil
        executionCount = status.executionCount + 1
        let predecessor = policy.isQueue ? queueTail : nil
        let claim = RequestClaim.current
        let task = Task {
            _ = isolation
            _ = await predecessor?.value
            let outcome: Outcome
            if Task.isCancelled || self.cancelled.contains(id) {
                outcome = .failure(.cancelled)
            } else {
                do {
                    outcome = .success(try await run())
                } catch {
                    let cancelledHere = Task.isCancelled || self.cancelled.contains(id)
                    outcome = .failure(cancelledHere ? .cancelled : ExecutionFailure(error))
                }
            }
            self.end(id, outcome, claim: claim)
            return outcome
        }
        executions[id] = task
        if policy.isQueue { queueTail = task }
        return task
    }

    /// Forgets ``succeededClaim`` once a version showing the end was committed with `claim`, or
    /// rolled back (what the end changed is gone).
    package func forgetSucceededClaim(_ claim: RequestClaim) {
        if succeededClaim == claim { succeededClaim = nil }
    }

    private func end(_ id: Int, _ outcome: Outcome, claim: RequestClaim?) {
        executions[id] = nil
        cancelled.remove(id)
        executionCount = status.executionCount - 1
        switch outcome {
        case .success: if let claim { succeededClaim = claim }
        case .failure(let failure) where failure.origin == .cancelled:
            if id == latestID, status.lastError == nil { lastError = errorBeforeLatest }
        case .failure(let failure):
            lastError = failure
        }
        if executions.isEmpty { queueTail = nil }
    }
}

extension Command {
    /// The observable state of a command (see ``Command/lastError``, ``Command/executionCount``
    /// and ``Command/isRunningElsewhere``).
    fileprivate struct Status {
        var lastError: ExecutionFailure?
        var executionCount = 0
        var isRunningElsewhere = false

        /// Whether an execution is running or waiting, here or on another node.
        var isExecuting: Bool { executionCount > 0 || isRunningElsewhere }
    }
}

extension CommandPolicy {
    fileprivate var isQueue: Bool {
        if case .queue = self { true } else { false }
    }
}
