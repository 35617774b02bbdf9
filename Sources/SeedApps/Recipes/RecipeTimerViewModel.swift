import Bindery
import Observation

/// A recipe's timer (`recipes/<id>/timer`, seed 003's `ASHTimerViewModel`), one per session.
///
/// `start` is the countdown itself: a deferred command that ticks once a second on the injected
/// clock, advancing to the next step when one ends and finishing after the last; `running` is
/// "`start` is executing". `pause` cancels it, `next` skips to the next step, `reset` goes back to
/// the first. The step index and the seconds left are kept across restarts.
@Observable
public final class RecipeTimerViewModel: ViewModel {
    /// The recipe's id.
    public let id: String
    /// The step the timer is in (clamped to the recipe's steps when shown).
    public private(set) var currentStepIndex = 0
    /// The seconds left in the current step; nil while the step has not started (its full
    /// duration, which follows edits of the recipe).
    public private(set) var remainingTime: Int?
    /// The live state of `start`, `pause`, `next` and `reset`.
    public let commandStates = CommandStates()

    @ObservationIgnored let book: RecipeBook
    @ObservationIgnored private let clock: any Clock<Duration>

    /// Creates the timer of the recipe `id` of `book`, counting on `clock`.
    public init(book: RecipeBook, id: String, clock: any Clock<Duration>) {
        self.book = book
        self.id = id
        self.clock = clock
    }

    /// The recipe's steps as they are now.
    public var steps: [Step] { book.recipe(id: id)?.steps ?? [] }
    /// The current step's index, within the steps.
    public var stepIndex: Int { max(0, min(currentStepIndex, steps.count - 1)) }
    /// The current step's name ("" without steps).
    public var currentStepName: String { steps.isEmpty ? "" : steps[stepIndex].name }
    /// The next step's name, or "" at the last step.
    public var nextStepString: String { RecipeRules.nextStepString(steps: steps, currentStepIndex: stepIndex) }
    /// The seconds left in the current step.
    public var remainingSeconds: Int { remainingTime ?? (steps.isEmpty ? 0 : steps[stepIndex].durationSeconds) }
    /// Whether the countdown runs (`start` is executing).
    public var running: Bool { command(named: "start")?.isExecuting ?? false }
    /// Whether the last step has run out.
    public var finished: Bool { steps.isEmpty || (stepIndex == steps.count - 1 && remainingSeconds == 0) }
    /// The timer is gone once its recipe is deleted.
    public var isGone: Bool { !book.contains(id: id) }

    /// Counts down until the last step ends; every second is a new version.
    func countdown() async throws -> CommandResult {
        while true {
            try await clock.sleep(for: .seconds(1))
            try Task.checkCancellation()
            guard tick() else { return .none }
        }
    }

    /// One second passes; returns whether the countdown goes on.
    func tick() -> Bool {
        let steps = steps
        guard !steps.isEmpty else { return false }
        let index = stepIndex
        let left = remainingSeconds - 1
        if left > 0 {
            remainingTime = left
            return true
        }
        if index + 1 < steps.count {
            currentStepIndex = index + 1
            remainingTime = nil
            return true
        }
        currentStepIndex = index
        remainingTime = 0
        return false
    }

    /// Goes to the next step, not started yet.
    func skip() {
        currentStepIndex = stepIndex + 1
        remainingTime = nil
    }

    /// Stops the countdown and goes back to the first step.
    func reset() {
        _ = command(named: "start")?.cancelAll()
        currentStepIndex = 0
        remainingTime = nil
    }

    /// Outputs `currentStepIndex`, `currentStepName`, `nextStepString`, `remainingSeconds`,
    /// `running`, `stepCount`; commands `start`, `pause`, `next`, `reset`.
    public static let declaration = ViewModelDeclaration<RecipeTimerViewModel>(
        "RecipeTimer",
        summary: "A recipe's development timer (seed 003's ASHTimerViewModel), counting down on the server.",
        outputs: [
            .integer("currentStepIndex") { $0.stepIndex },
            .string("currentStepName") { $0.currentStepName },
            .string("nextStepString") { $0.nextStepString },
            .integer("remainingSeconds") { $0.remainingSeconds },
            .boolean("running") { $0.running },
            .integer("stepCount") { $0.steps.count },
        ],
        commands: [
            .deferred(
                "start", summary: "Runs the countdown until the last step ends (answers 202 unless you wait that long).",
                enabled: { !$0.finished },
                prepare: { model, _ in { try await model.countdown() } }
            ),
            .deferred(
                "pause", summary: "Stops the countdown where it is.", enabled: { $0.running },
                prepare: { model, _ in
                    {
                        for task in model.command(named: "start")?.cancelAll() ?? [] { _ = await task.value }
                        return .none
                    }
                }
            ),
            .immediate(
                "next", summary: "Skips to the next step.", enabled: { !$0.nextStepString.isEmpty },
                run: { model, _ in
                    model.skip()
                    return .none
                }
            ),
            .immediate(
                "reset", summary: "Stops the countdown and goes back to the first step.",
                run: { model, _ in
                    model.reset()
                    return .none
                }
            ),
        ],
        persists: PersistedState(
            save: { ["currentStepIndex": .int($0.currentStepIndex), "remainingSeconds": $0.remainingTime.map(JSONValue.int) ?? .null] },
            restore: { model, state in
                model.currentStepIndex = max(0, state.objectValue?["currentStepIndex"]?.intValue ?? 0)
                model.remainingTime = state.objectValue?["remainingSeconds"]?.intValue
            }
        )
    )
}
