import SeedApps
import BinderyRuntime
import BinderyTestSupport
import BinderyTesting
import Testing

/// Seed 003's detail and timer view models under the exhaustive tester: every change of the
/// shared recipe shows in exactly the outputs the seed derives from it, and nothing else.
@MainActor
@Suite("Recipe detail and timer view models (seed 003)", .timeLimit(.minutes(1)))
struct RecipeViewModelTests {
    static let quick = Recipe(
        id: "quick", name: "Quick", steps: [Step(name: "Developer", durationSeconds: 2), Step(name: "Fixer", durationSeconds: 1)]
    )

    static func idle(enabled: Bool, policy: String = "serial") -> SnapshotState.CommandState {
        .init(enabled: enabled, executing: false, error: nil, policy: policy)
    }

    @Test func canStartTimerFollowsTheRecipesSteps() async throws {
        let book = RecipeBook.inMemory([Self.quick])
        let detail = ViewModelTester(RecipeDetailViewModel(book: book, id: "quick", clock: CountingClock())) { state in
            #expect(state.outputs["canStartTimer"] == true)
            #expect(state.outputs["recipeVersion"] == 1)
            #expect(state.commands == ["startTimer": Self.idle(enabled: true), "restore": Self.idle(enabled: false)])
        }
        try await book.update(id: "quick") { $0.steps = [] }
        await detail.settle {
            $0.outputs["steps"] = []
            $0.outputs["canStartTimer"] = false
            $0.outputs["recipeVersion"] = 2
            $0.commands["startTimer"] = Self.idle(enabled: false)
        }
        detail.refuse("startTimer", with: .commandDisabled(name: "startTimer"))
        try await book.update(id: "quick") { $0.steps = [Step(name: "Rinse", durationSeconds: 30)] }
        await detail.settle {
            $0.outputs["steps"] = [["id": "s1", "index": 0, "name": "Rinse", "durationSeconds": 30, "temperatureCelsius": nil, "agitation": ""]]
            $0.outputs["canStartTimer"] = true
            $0.outputs["recipeVersion"] = 3
            $0.commands["startTimer"] = Self.idle(enabled: true)
        }
        detail.finish()
    }

    @Test func theTimerCountsDownStepByStepOnTheTestClock() async throws {
        let clock = CountingClock()
        let timer = ViewModelTester(RecipeTimerViewModel(book: .inMemory([Self.quick]), id: "quick", clock: clock)) { state in
            #expect(
                state.outputs == [
                    "currentStepIndex": 0, "currentStepName": "Developer", "nextStepString": "Fixer",
                    "remainingSeconds": 2, "running": false, "stepCount": 2,
                ])
        }
        let running = SnapshotState.CommandState(enabled: false, executing: true, error: nil, policy: "serial")
        try timer.execute("start") {
            $0.outputs["running"] = true
            $0.commands["start"] = running
            $0.commands["pause"] = Self.idle(enabled: true)
        }
        await clock.waitForSleeps(1)
        await clock.advance(by: .seconds(1))
        await timer.settle { $0.outputs["remainingSeconds"] = 1 }
        await clock.waitForSleeps(2)
        await clock.advance(by: .seconds(1))
        await timer.settle {
            $0.outputs["currentStepIndex"] = 1
            $0.outputs["currentStepName"] = "Fixer"
            $0.outputs["nextStepString"] = ""
            $0.outputs["remainingSeconds"] = 1
            $0.commands["next"] = Self.idle(enabled: false)
        }
        await clock.waitForSleeps(3)
        await clock.advance(by: .seconds(1))
        await timer.settle {
            $0.outputs["remainingSeconds"] = 0
            $0.outputs["running"] = false
            $0.commands["start"] = Self.idle(enabled: false)
            $0.commands["pause"] = Self.idle(enabled: false)
        }
        timer.finish()
    }
}
