import BinderyRuntime
import BinderyTestSupport
import Observation

/// A view model whose activation work loads something once a gate opens: `loading` while it
/// waits, `loaded` after. For the tests of the view-model tester's activation.
@Observable
final class LoaderViewModel: ViewModel {
    var loading = false
    var loaded = false
    @ObservationIgnored let gate = Gate()
    let commandStates = CommandStates()

    static let declaration = ViewModelDeclaration<LoaderViewModel>(
        "Loader",
        summary: "Loads while active, for tests of the tester.",
        outputs: [.boolean("loading") { $0.loading }, .boolean("loaded") { $0.loaded }]
    )

    func whileActive() async {
        loading = true
        defer { loading = false }
        guard (try? await gate.wait()) != nil else { return }
        loaded = true
    }
}
