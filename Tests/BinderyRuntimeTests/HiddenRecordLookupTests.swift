import BinderyRuntime
import Observation
import Testing

/// A note that only its author may read.
struct PrivateNote: SharedRecord {
    var id: String
    var version = 1
    var author: String
    var title: String
}

/// A notebook over one shared collection whose records only their author reads; a page per note.
@Observable
final class NotebookViewModel: ViewModel {
    @ObservationIgnored let notes: SharedCollection<PrivateNote>
    let commandStates = CommandStates()

    init(notes: SharedCollection<PrivateNote>) {
        self.notes = notes
    }

    static let declaration = ViewModelDeclaration<NotebookViewModel>(
        "Notebook", summary: "Notes.",
        children: [
            ChildRoute(
                "note", title: "Note", segment: "", parameter: "id", parameterSchema: .text,
                child: NoteViewModel.declaration.schema, resolve: { model, id in model.notes.record(id: id).map(NoteViewModel.init) }
            )
        ]
    )
}

/// One note's page.
@Observable
final class NoteViewModel: ViewModel {
    @ObservationIgnored let note: PrivateNote
    let commandStates = CommandStates()

    init(note: PrivateNote) {
        self.note = note
    }

    static let declaration = ViewModelDeclaration<NoteViewModel>(
        "Note", summary: "A note.", outputs: [.string("title") { $0.note.title }]
    )
}

/// A graph looks children up as its session's viewer sees the records, whichever task asks:
/// a request that reaches the graph without ``Viewer/current`` set (an events route, a flush
/// another session started) finds no record hidden from the viewer (issue 37).
@Suite("Records hidden from the viewer stay hidden on every path into the graph")
struct HiddenRecordLookupTests {
    @Test func aRecordHiddenFromTheViewerIsNotFoundWhoeverAsks() async throws {
        let notes = SharedCollection<PrivateNote>.inMemory(
            "notes", [PrivateNote(id: "n1", author: "ada", title: "Ada's secret")],
            readableBy: .when { user, note in user.id == note.author }
        )
        let screens = [Screen("notebook", title: "Notebook") { _ in NotebookViewModel(notes: notes) }]
        let bob = ViewModelGraph(screens: screens, viewer: Viewer(user: User(id: "bob", name: "Bob")))
        #expect(Viewer.current == nil, "this test's task has no viewer of its own")
        await #expect(throws: ViewModelError.notFound(path: "notebook/n1")) { try await bob.snapshot("notebook/n1") }
        await #expect(throws: ViewModelError.notFound(path: "notebook/n1")) {
            try await bob.watch("notebook/n1", after: nil, send: { _ in }, end: {})
        }
        let ada = ViewModelGraph(screens: screens, viewer: Viewer(user: User(id: "ada", name: "Ada")))
        #expect(try await ada.snapshot("notebook/n1").bytes.isEmpty == false, "its author reads it")
    }
}
