import Observation

/// An action a client can execute (RACCommand / ReactiveSwift `Action`).
///
/// `enabled` is derived from the view model's state and is false while the command executes:
/// executions are serial. Executing a disabled command is refused with a typed error and changes
/// nothing. The last failure of the work is kept as `error` until the next execution starts.
@Observable
public final class Command {
    /// The work of one execution, already checked against the command's argument rules.
    public enum Work {
        /// Work that finishes without waiting (form `clear`, `select`).
        case immediate(() throws -> CommandResult)
        /// Work that awaits something, typically the upstream (list `load`).
        case deferred(DeferredWork)
    }

    /// Work that awaits. It runs on the caller's actor (the session's), never concurrently with
    /// it, so it may read and write the view model it belongs to.
    public typealias DeferredWork = nonisolated(nonsending) () async throws -> CommandResult

    /// The command's name, as it appears in snapshots and URLs.
    @ObservationIgnored public let name: String
    /// Whether an execution is running.
    public private(set) var isExecuting = false
    /// The failure of the last execution, cleared when a new one starts.
    public private(set) var lastError: ExecutionFailure?

    @ObservationIgnored private let condition: () -> Bool
    @ObservationIgnored private let makeWork: (JSONValue?) throws(ViewModelError) -> Work

    /// Creates a command whose argument is checked by `prepare`, which returns the work to run.
    public init(
        _ name: String,
        enabled condition: @escaping () -> Bool = { true },
        prepare: @escaping (JSONValue?) throws(ViewModelError) -> Work
    ) {
        self.name = name
        self.condition = condition
        self.makeWork = prepare
    }

    /// Creates a command that takes no argument and runs `work` without waiting.
    public convenience init(
        _ name: String,
        enabled condition: @escaping () -> Bool = { true },
        immediate work: @escaping () throws -> CommandResult
    ) {
        self.init(name, enabled: condition) { argument throws(ViewModelError) in
            try Command.requireNoArgument(argument, command: name)
            return .immediate(work)
        }
    }

    /// Creates a command that takes no argument and awaits `work`.
    public convenience init(
        _ name: String,
        enabled condition: @escaping () -> Bool = { true },
        deferred work: @escaping DeferredWork
    ) {
        self.init(name, enabled: condition) { argument throws(ViewModelError) in
            try Command.requireNoArgument(argument, command: name)
            return .deferred(work)
        }
    }

    /// Whether an execution may start now: the view model's condition holds and none is running.
    public var isEnabled: Bool { condition() && !isExecuting }

    /// The command as a snapshot member: `{"enabled", "executing", "error"}`.
    public var json: JSONValue {
        .object([
            "enabled": .bool(isEnabled),
            "executing": .bool(isExecuting),
            "error": lastError?.json ?? .null,
        ])
    }

    /// Checks the argument and the command's state, and marks the command executing.
    ///
    /// Throws without changing anything when the argument is wrong, the command is disabled or
    /// already executing. On success the caller must pass the work to ``finish(_:)``.
    public func begin(_ argument: JSONValue?) throws(ViewModelError) -> Work {
        let work = try makeWork(argument)
        guard !isExecuting else { throw .commandExecuting(name: name) }
        guard condition() else { throw .commandDisabled(name: name) }
        isExecuting = true
        lastError = nil
        return work
    }

    /// Runs work obtained from ``begin(_:)`` on `isolation` (the view model's actor) and records
    /// how it ended.
    public func finish(
        _ work: Work, isolation: isolated (any Actor)? = #isolation
    ) async -> Result<CommandResult, ExecutionFailure> {
        let outcome: Result<CommandResult, ExecutionFailure>
        do {
            switch work {
            case .immediate(let run): outcome = .success(try run())
            case .deferred(let run): outcome = .success(try await run())
            }
        } catch {
            outcome = .failure(ExecutionFailure(error))
        }
        isExecuting = false
        if case .failure(let failure) = outcome { lastError = failure }
        return outcome
    }

    /// Begins and finishes an execution in one call (for in-process callers and tests).
    public func execute(
        _ argument: JSONValue? = nil, isolation: isolated (any Actor)? = #isolation
    ) async throws(ViewModelError) -> Result<CommandResult, ExecutionFailure> {
        let work = try begin(argument)
        return await finish(work, isolation: isolation)
    }

    /// Refuses a body for a command that takes none (`null` and `{}` count as none).
    public static func requireNoArgument(_ argument: JSONValue?, command: String) throws(ViewModelError) {
        switch argument {
        case nil, .null?: return
        case .object(let members)? where members.isEmpty: return
        default: throw .invalidArgument(command: command, reason: "this command takes no argument")
        }
    }

    /// The member `name` of an object argument such as `{"id": ...}`, or the reason there is none.
    ///
    /// `shape` describes the expected argument in the error, e.g. `{"index": <integer>}`.
    public static func requireMember(
        _ name: String, of argument: JSONValue?, command: String, shape: String
    ) throws(ViewModelError) -> JSONValue {
        guard let members = argument?.objectValue else {
            throw .invalidArgument(command: command, reason: "expected an object \(shape)")
        }
        guard let value = members[name] else {
            throw .invalidArgument(command: command, reason: "missing \"\(name)\"")
        }
        return value
    }
}
