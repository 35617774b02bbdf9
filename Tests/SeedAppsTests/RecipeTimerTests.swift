import SeedApps
import BinderyRuntime
import BinderyTestSupport
import BinderyUpstream
import Testing

/// Seed 003's `ASHTimerViewModel`, counting down on the server on a test clock (no real sleeps).
@MainActor
@Suite("Recipe timer (seed 003)", .timeLimit(.minutes(1)))
struct RecipeTimerTests {
    static let path = "recipes/quick/timer"
    static let quick = Recipe(
        id: "quick", name: "Quick",
        steps: [
            Step(name: "Developer", durationSeconds: 2, temperatureCelsius: 20),
            Step(name: "Fixer", durationSeconds: 1),
        ]
    )

    /// A graph over a book holding ``quick``, on a test clock.
    func timerGraph() -> (RecipeBook, ViewModelGraph, CountingClock) {
        let (upstream, clock) = makeTestUpstream()
        let book = RecipeBook.inMemory([Self.quick])
        return (book, ViewModelGraph(screens: FeatureScreens.all(upstream: upstream, recipes: book, clock: clock)), clock)
    }

    /// The timer's outputs.
    func outputs(_ graph: ViewModelGraph) async throws -> JSONValue? {
        try await graph.snapshot(Self.path).decoded().objectValue?["outputs"]
    }

    /// Advances one second and waits until the timer shows `remaining` in step `index`.
    func tick(_ graph: ViewModelGraph, _ clock: CountingClock, to index: Int, _ remaining: Int) async {
        await clock.advance(by: .seconds(1))
        #expect(
            await settle {
                let outputs = try? await self.outputs(graph)
                return outputs?.objectValue?["currentStepIndex"] == .int(index)
                    && outputs?.objectValue?["remainingSeconds"] == .int(remaining)
            })
    }

    @Test func startsAtTheFirstStepWithItsFullDuration() async throws {
        let (_, graph, _) = timerGraph()
        #expect(
            try await outputs(graph) == [
                "currentStepIndex": 0, "currentStepName": "Developer", "nextStepString": "Fixer",
                "remainingSeconds": 2, "running": false, "stepCount": 2,
            ])
    }

    @Test func countsDownAdvancesAndStopsAfterTheLastStep() async throws {
        let (_, graph, clock) = timerGraph()
        _ = try await graph.execute(Self.path, command: "start", argument: nil)
        #expect(try await outputs(graph)?.objectValue?["running"] == true)
        await clock.waitForSleeps(1)
        await tick(graph, clock, to: 0, 1)
        await clock.waitForSleeps(2)
        await tick(graph, clock, to: 1, 1)
        #expect(try await outputs(graph)?.objectValue?["currentStepName"] == "Fixer")
        #expect(try await outputs(graph)?.objectValue?["nextStepString"] == "")
        await clock.waitForSleeps(3)
        await tick(graph, clock, to: 1, 0)
        #expect(await settle { (try? await self.outputs(graph))?.objectValue?["running"] == false })
        await #expect(throws: ViewModelError.commandDisabled(name: "start")) {
            try await graph.execute(Self.path, command: "start", argument: nil)
        }
    }

    @Test func pauseStopsTheCountdownWhereItIs() async throws {
        let (_, graph, clock) = timerGraph()
        _ = try await graph.execute(Self.path, command: "start", argument: nil)
        await clock.waitForSleeps(1)
        await tick(graph, clock, to: 0, 1)
        _ = try await graph.execute(Self.path, command: "pause", argument: nil, wait: .seconds(30))
        #expect(await settle { (try? await self.outputs(graph))?.objectValue?["running"] == false })
        await clock.advance(by: .seconds(5))
        await yieldToOtherTasks(rounds: 5)
        #expect(try await outputs(graph)?.objectValue?["remainingSeconds"] == 1)
        #expect(try await outputs(graph)?.objectValue?["currentStepIndex"] == 0)
    }

    @Test func nextSkipsAStepAndResetGoesBack() async throws {
        let (_, graph, _) = timerGraph()
        _ = try await graph.execute(Self.path, command: "next", argument: nil)
        #expect(try await outputs(graph)?.objectValue?["currentStepName"] == "Fixer")
        #expect(try await outputs(graph)?.objectValue?["remainingSeconds"] == 1)
        await #expect(throws: ViewModelError.commandDisabled(name: "next")) {
            try await graph.execute(Self.path, command: "next", argument: nil)
        }
        _ = try await graph.execute(Self.path, command: "reset", argument: nil)
        #expect(try await outputs(graph)?.objectValue?["currentStepIndex"] == 0)
        #expect(try await outputs(graph)?.objectValue?["remainingSeconds"] == 2)
    }

    @Test func theStepsFollowEditsOfTheRecipe() async throws {
        let (book, graph, _) = timerGraph()
        _ = try await graph.snapshot(Self.path)
        try await book.update(id: "quick") { $0.steps.insert(Step(name: "Pre-soak", durationSeconds: 60), at: 0) }
        #expect(await settle { (try? await self.outputs(graph))?.objectValue?["currentStepName"] == "Pre-soak" })
        #expect(try await outputs(graph)?.objectValue?["nextStepString"] == "Developer")
        #expect(try await outputs(graph)?.objectValue?["remainingSeconds"] == 60)
    }
}
