import BinderyRuntime
import Testing

@MainActor
@Suite("Command semantics without HTTP")
struct CommandTests {
    let model = CounterViewModel()

    @Test func disabledCommandIsRefusedAndChangesNothing() async throws {
        model.limit = 0
        #expect(model.snapshotCommand("increment", "enabled") == false)
        await #expect(throws: ViewModelError.commandDisabled(name: "increment")) {
            try await model.execute("increment")
        }
        #expect(model.count == 0)
        #expect(model.command(named: "increment")?.isExecuting == false)
    }

    @Test func aSerialCommandRefusesASecondExecutionWhileOneRuns() async throws {
        let (command, started) = try model.startCommand("slowIncrement", argument: nil)
        #expect(command.isExecuting)
        #expect(model.snapshotCommand("slowIncrement", "enabled") == false)
        #expect(model.snapshotCommand("slowIncrement", "policy") == "serial")
        #expect(throws: ViewModelError.commandExecuting(name: "slowIncrement")) {
            _ = try model.startCommand("slowIncrement", argument: nil)
        }
        model.gate.open()
        #expect(try await started.outcome.get() == .none)
        #expect(model.count == 1)
        #expect(!command.isExecuting)
        #expect(model.snapshotCommand("slowIncrement", "enabled") == true)
    }

    @Test func concurrentExecutionsRunSideBySide() async throws {
        let first = try model.startCommand("together", argument: ["value": 1]).1
        let second = try model.startCommand("together", argument: ["value": 2]).1
        #expect(model.snapshotCommand("together", "enabled") == true)
        model.gate.open()
        _ = await (first.outcome, second.outcome)
        #expect(model.written.sorted() == [1, 2])
        #expect(model.command(named: "together")?.isExecuting == false)
    }

    @Test func cancelPreviousLeavesOnlyTheLastResult() async throws {
        let first = try model.startCommand("latest", argument: ["value": 1]).1
        let second = try model.startCommand("latest", argument: ["value": 2]).1
        #expect(await first.outcome == .failure(.cancelled))
        #expect(model.command(named: "latest")?.isExecuting == true)
        model.gate.open()
        #expect(try await second.outcome.get() == .none)
        #expect(model.written == [2])
        #expect(model.command(named: "latest")?.lastError == nil)
    }

    @Test func aQueueRunsInOrderAndRefusesPastItsBound() async throws {
        let runs = try [1, 2, 3].map { try model.startCommand("enqueue", argument: ["value": .int($0)]).1 }
        #expect(model.snapshotCommand("enqueue", "enabled") == false)
        #expect(throws: ViewModelError.commandQueueFull(name: "enqueue", limit: 2)) {
            _ = try model.startCommand("enqueue", argument: ["value": 4])
        }
        model.gate.open()
        for run in runs { _ = await run.outcome }
        #expect(model.written == [1, 2, 3])
        #expect(model.snapshotCommand("enqueue", "enabled") == true)
    }

    @Test func cancellingStopsTheWorkBeforeExecutingTurnsFalseAndChangesNothing() async throws {
        let (command, started) = try model.startCommand("slowIncrement", argument: nil)
        let stopping = command.cancelAll()
        #expect(stopping.count == 1)
        #expect(command.isExecuting, "still executing until the work has really stopped")
        for task in stopping { _ = await task.value }
        #expect(!command.isExecuting)
        #expect(await started.outcome == .failure(.cancelled))
        #expect(model.count == 0)
        #expect(command.lastError == nil)
        #expect(command.cancelAll().isEmpty)
    }

    @Test func failureBecomesTheCommandErrorUntilTheNextExecution() async throws {
        let result = try await model.execute("fail")
        let expected = ExecutionFailure(message: "Bad Network", code: 500, origin: .upstream)
        #expect(result == .failure(expected))
        #expect(model.command(named: "fail")?.lastError == expected)
        #expect(model.snapshotCommand("fail", "error")?.objectValue?["message"] == "Bad Network")
        let next = try model.startCommand("fail", argument: nil)
        #expect(next.0.lastError == nil)
        _ = await next.1.outcome
    }

    @Test func argumentIsCheckedAgainstItsSchemaBeforeAnythingChanges() async throws {
        await #expect(throws: ViewModelError.invalidArgument(command: "increment", reason: "this command takes no argument")) {
            try await model.execute("increment", ["x": 1])
        }
        #expect(throws: ViewModelError.invalidArgument(command: "latest", reason: "\"value\" expected an integer, got string")) {
            _ = try model.startCommand("latest", argument: ["value": "one"])
        }
        #expect(throws: ViewModelError.invalidArgument(command: "latest", reason: "expected an object, got null")) {
            _ = try model.startCommand("latest", argument: nil)
        }
        #expect(model.count == 0)
        _ = try await model.execute("increment", .object([:]))
        #expect(model.count == 1)
    }

    @Test func enabledFollowsTheViewModelState() async throws {
        model.limit = 1
        #expect(model.snapshotCommand("increment", "enabled") == true)
        _ = try await model.execute("increment")
        #expect(model.snapshotCommand("increment", "enabled") == false)
    }
}

extension CounterViewModel {
    /// A member of a command's state as the snapshot shows it.
    func snapshotCommand(_ name: String, _ member: String) -> JSONValue? {
        snapshotMembers["commands"]?.objectValue?[name]?.objectValue?[member]
    }
}

extension Command.Started {
    /// How the execution ended, waiting for deferred work.
    var outcome: Command.Outcome {
        get async {
            switch self {
            case .finished(let outcome): outcome
            case .running(let task): await task.value
            }
        }
    }
}
