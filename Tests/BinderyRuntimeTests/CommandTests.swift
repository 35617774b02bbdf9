import BinderyRuntime
import Testing

@MainActor
@Suite("Command semantics without HTTP")
struct CommandTests {
    @Test func disabledCommandIsRefusedAndChangesNothing() async throws {
        let model = CounterViewModel()
        model.limit = 0
        #expect(!model.increment.isEnabled)
        await #expect(throws: ViewModelError.commandDisabled(name: "increment")) {
            try await model.increment.execute()
        }
        #expect(model.count == 0)
        #expect(!model.increment.isExecuting)
    }

    @Test func executionIsSerial() async throws {
        let model = CounterViewModel()
        let work = try model.slowIncrement.begin(nil)
        #expect(model.slowIncrement.isExecuting)
        #expect(!model.slowIncrement.isEnabled)
        #expect(throws: ViewModelError.commandExecuting(name: "slowIncrement")) {
            _ = try model.slowIncrement.begin(nil)
        }
        model.gate.open()
        let result = await model.slowIncrement.finish(work)
        #expect(try result.get() == .none)
        #expect(model.count == 1)
        #expect(!model.slowIncrement.isExecuting)
        #expect(model.slowIncrement.isEnabled)
    }

    @Test func failureBecomesTheCommandErrorUntilTheNextExecution() async throws {
        let model = CounterViewModel()
        let result = try await model.fail.execute()
        let expected = ExecutionFailure(message: "Bad Network", code: 500, origin: .upstream)
        #expect(result == .failure(expected))
        #expect(model.fail.lastError == expected)
        #expect(model.fail.json.objectValue?["error"]?.objectValue?["message"] == "Bad Network")
        _ = try model.fail.begin(nil)
        #expect(model.fail.lastError == nil)
    }

    @Test func argumentIsCheckedBeforeAnythingChanges() async throws {
        let model = CounterViewModel()
        await #expect(throws: ViewModelError.invalidArgument(command: "increment", reason: "this command takes no argument")) {
            try await model.increment.execute(.object(["x": 1]))
        }
        #expect(model.count == 0)
        _ = try await model.increment.execute(.object([:]))
        #expect(model.count == 1)
    }

    @Test func enabledFollowsTheViewModelState() async throws {
        let model = CounterViewModel()
        model.limit = 1
        #expect(model.increment.isEnabled)
        _ = try await model.increment.execute()
        #expect(!model.increment.isEnabled)
    }
}
