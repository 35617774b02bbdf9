import BinderyRuntime
import BinderyTestSupport
import Observation

/// A view model over the shared note `a` for the idempotency-claim tests: it shows the note's
/// title and version; `retitle` commits a new title to the note (as `addStep` commits a step to a
/// recipe), `stubborn` fails once `hold` opens, running to its end even when cancelled (as a
/// shared record's commit does).
@Observable
final class NoteTitlerViewModel: ViewModel {
    let notes: SharedCollection<Note>
    /// Opened by `stubborn` when its work starts.
    @ObservationIgnored let started = Gate()
    /// What `stubborn`'s work waits for.
    @ObservationIgnored let hold = Gate()
    let commandStates = CommandStates()

    init(notes: SharedCollection<Note>) {
        self.notes = notes
    }

    static let declaration = ViewModelDeclaration<NoteTitlerViewModel>(
        "NoteTitler",
        summary: "Retitles a shared note.",
        outputs: [
            .string("title") { $0.notes.record(id: "a")?.title ?? "" },
            .integer("noteVersion") { $0.notes.record(id: "a")?.version ?? 0 },
        ],
        commands: [
            .deferred(
                "retitle", summary: "Commits a new title to the note, as long as it is still the version shown.",
                argument: .object(["title": .string()])
            ) { model, argument in
                let title = argument?.objectValue?["title"]?.stringValue ?? ""
                let shown = model.notes.record(id: "a")?.version
                return {
                    try await model.notes.update(id: "a", expectedVersion: shown) { $0.title = title }
                    return .none
                }
            },
            .deferred("stubborn", summary: "Fails once `hold` opens, however it was cancelled meanwhile.") { model, _ in
                let (started, hold) = (model.started, model.hold)
                return {
                    started.open()
                    await Task { try? await hold.wait() }.value
                    throw ExecutionFailure(message: "changed elsewhere; try again", origin: .rule)
                }
            },
        ]
    )
}

/// A screen `note` showing the note `a` of `notes`.
func noteScreens(_ notes: SharedCollection<Note>) -> [Screen] {
    [Screen("note", title: "Note") { NoteTitlerViewModel(notes: notes) }]
}
