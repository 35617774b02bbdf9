import BinderyRuntime
import BinderyTestSupport
import Observation

/// A small view model for runtime tests: a name input, a count output, one command per
/// concurrency policy whose deferred work waits on a gate the test opens, and activation work
/// that records itself.
@Observable
final class CounterViewModel: ViewModel {
    var name = "start"
    var count = 0
    var limit = 3
    var activations = 0
    var activeWorkCancelled = false
    /// What `latest` and `enqueue` executions wrote, in the order they finished.
    var written: [Int] = []
    @ObservationIgnored let gate = Gate()
    let commandStates = CommandStates()

    static let declaration = ViewModelDeclaration<CounterViewModel>(
        "Counter",
        summary: "A counter for runtime tests.",
        inputs: [.string("name", \.name, maxLength: 16), .integer("limit", \.limit, in: 0...10)],
        outputs: [
            .integer("count") { $0.count },
            .string("greeting") { "hello \($0.name)" },
            .init("written", schema: .array(.int)) { .array($0.written.map(JSONValue.int)) },
        ],
        commands: [
            .immediate("increment", summary: "Adds one.", navigates: true, enabled: { $0.count < $0.limit }) { model, _ in
                model.count += 1
                return CommandResult(navigate: "/counter/\(model.count)")
            },
            .deferred("slowIncrement", summary: "Adds one once the gate opens.") { model, _ in
                {
                    try await model.gate.wait()
                    model.count += 1
                    return .none
                }
            },
            .deferred("slowRename", summary: "Renames once the gate opens.", argument: .object(["name": .string()])) { model, argument in
                let name = argument?.objectValue?["name"]?.stringValue ?? ""
                return {
                    try await model.gate.wait()
                    model.name = name
                    return .none
                }
            },
            .deferred("fail", summary: "Fails like the upstream.") { _, _ in
                { throw ExecutionFailure(message: "Bad Network", code: 500, origin: .upstream) }
            },
            write("together", policy: .concurrent),
            write("latest", policy: .cancelPrevious),
            write("enqueue", policy: .queue(limit: 2)),
        ]
    )

    /// A deferred command taking `{"value": n}` that appends `n` to `written` once the gate opens.
    private static func write(_ name: String, policy: CommandPolicy) -> CommandDeclaration<CounterViewModel> {
        .deferred(name, summary: "Writes a value.", argument: .object(["value": .int]), policy: policy) { model, argument in
            let value = argument?.objectValue?["value"]?.intValue ?? 0
            return {
                try await model.gate.wait()
                model.written.append(value)
                return .none
            }
        }
    }

    func whileActive() async {
        activations += 1
        do {
            try await gate.wait()
        } catch {
            activeWorkCancelled = true
        }
    }
}

/// The test graph's one screen: `counter`.
let counterScreens = [Screen("counter", title: "Counter") { CounterViewModel() }]
