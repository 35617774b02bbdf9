import Bindery
import Observation

/// A counter: add or take away `step`, see whether the count is even, reset it after a moment.
@Observable
public final class CounterViewModel: ViewModel {
    public var step = 1
    public var count = 0
    public let commandStates = CommandStates()
    @ObservationIgnored let clock: any Clock<Duration>

    public init(clock: any Clock<Duration> = ContinuousClock()) {
        self.clock = clock
    }

    public static let declaration = ViewModelDeclaration<CounterViewModel>(
        "Counter",
        summary: "Counts up and down by a step.",
        inputs: [.integer("step", \.step, in: 1...10)],
        outputs: [
            .integer("count") { $0.count },
            .enumeration("parity", ["even", "odd"]) { $0.count.isMultiple(of: 2) ? "even" : "odd" },
        ],
        commands: [
            .immediate("increment", summary: "Adds the step.") { model, _ in
                model.count += model.step
                return .none
            },
            .immediate("decrement", summary: "Takes the step away; never below 0.", enabled: { $0.count >= $0.step }) { model, _ in
                model.count -= model.step
                return .none
            },
            .deferred("reset", summary: "Sets the count to 0 after 300 ms.", policy: .cancelPrevious) { model, _ in
                {
                    try await model.clock.sleep(for: .milliseconds(300))
                    model.count = 0
                    return .none
                }
            },
        ],
        persists: .inputs(and: [.value("count", \.count)])
    )
}
