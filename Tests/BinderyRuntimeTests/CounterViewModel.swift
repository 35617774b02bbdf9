import BinderyRuntime
import Observation

/// A small view model for runtime tests: a name input, a count output, commands whose
/// deferred work waits on a gate the test opens, and activation work that records itself.
@Observable
final class CounterViewModel: ViewModel {
    var name = "start"
    var count = 0
    var limit = 3
    var activations = 0
    var activeWorkCancelled = false
    @ObservationIgnored let gate = Gate()

    @ObservationIgnored lazy var increment = Command(
        "increment", enabled: { [unowned self] in count < limit },
        immediate: { [unowned self] in
            count += 1
            return CommandResult(navigate: "/counter/\(count)")
        }
    )

    @ObservationIgnored lazy var slowIncrement = Command(
        "slowIncrement",
        deferred: { [unowned self] in
            try await gate.wait()
            count += 1
            return .none
        }
    )

    @ObservationIgnored lazy var fail = Command(
        "fail",
        immediate: { throw ExecutionFailure(message: "Bad Network", code: 500, origin: .upstream) }
    )

    var inputs: [Input] { [.string("name", of: self, \.name), .integer("limit", of: self, \.limit, in: 0...10)] }
    var outputs: [String: JSONValue] { ["count": .int(count), "greeting": .string("hello \(name)")] }
    var commands: [Command] { [increment, slowIncrement, fail] }

    func whileActive() async {
        activations += 1
        do {
            try await gate.wait()
        } catch {
            activeWorkCancelled = true
        }
    }
}

/// The root of the test graph: one `counter` screen.
struct CounterRoots: ViewModelRoots {
    var names: [String] { ["counter"] }
    func makeRoot(named name: String) -> (any ViewModel)? { name == "counter" ? CounterViewModel() : nil }
}
