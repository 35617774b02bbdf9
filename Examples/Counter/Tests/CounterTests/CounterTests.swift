import BinderyTesting
import Counter
import Testing

@MainActor
struct CounterTests {
    @Test func countsByTheStepAndResetsAfterAMoment() async throws {
        let clock = TestClock()
        let counter = ViewModelTester(CounterViewModel(clock: clock))
        counter.refuse("decrement", with: .commandDisabled(name: "decrement"))
        try await counter.write(["step": 3]) { $0.inputs["step"] = 3 }
        try counter.execute("increment") {
            $0.outputs = ["count": 3, "parity": "odd"]
            $0.commands["decrement"]?.enabled = true
        }
        await counter.refuseWrite(["step": 11], with: .invalidInput(name: "step", reason: "must be at most 10"))
        try counter.execute("decrement") {
            $0.outputs = ["count": 0, "parity": "even"]
            $0.commands["decrement"]?.enabled = false
        }
        try counter.execute("increment") {
            $0.outputs = ["count": 3, "parity": "odd"]
            $0.commands["decrement"]?.enabled = true
        }
        try counter.execute("reset") { $0.commands["reset"]?.executing = true }
        await clock.advance(by: .milliseconds(300))
        await counter.settle {
            $0.outputs = ["count": 0, "parity": "even"]
            $0.commands["decrement"]?.enabled = false
            $0.commands["reset"]?.executing = false
        }
        counter.finish()
    }
}
