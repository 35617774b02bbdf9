import BinderyBinding
import BinderyRuntime
import BinderyTestSupport
import Observation

/// A view model served over HTTP by the command tests: one deferred command per concurrency
/// policy, each waiting on a gate the test opens, each logging `"<command>:<value>"` when done.
@Observable
final class JobsViewModel: ViewModel {
    /// What finished executions logged, in the order they finished.
    var log: [String] = []
    @ObservationIgnored let gate: Gate
    let commandStates = CommandStates()

    init(gate: Gate) {
        self.gate = gate
    }

    static let declaration = ViewModelDeclaration<JobsViewModel>(
        "Jobs",
        summary: "Gate-controlled jobs for the command tests.",
        outputs: [.init("log", schema: .array(.text)) { .array($0.log.map(JSONValue.string)) }],
        commands: [
            job("serial", .serial), job("together", .concurrent), job("latest", .cancelPrevious),
            job("enqueue", .queue(limit: 1)),
        ]
    )

    private static func job(_ name: String, _ policy: CommandPolicy) -> CommandDeclaration<JobsViewModel> {
        .deferred(name, summary: "A job.", argument: .object(["value": .int]), policy: policy) { model, argument in
            let value = argument?.objectValue?["value"]?.intValue ?? 0
            return {
                try await model.gate.wait()
                model.log.append("\(name):\(value)")
                return .none
            }
        }
    }

    /// An app of one `jobs` screen whose jobs wait on `gate`.
    static func app(gate: Gate) -> TestServer.AppFactory {
        { _ in BinderyApp(screens: [Screen("jobs", title: "Jobs") { JobsViewModel(gate: gate) }]) }
    }
}
