@testable import BinderyRuntime
import Observation
import Testing

/// A note's editor: `title` written through to the shared note, `draft` its own.
@Observable
final class NoteEditor: ViewModel {
    let notes: SharedCollection<Note>
    let id: String
    var draft = ""
    let commandStates = CommandStates()

    init(notes: SharedCollection<Note>, id: String) {
        self.notes = notes
        self.id = id
    }

    static let declaration = ViewModelDeclaration<NoteEditor>(
        "NoteEditor", summary: "Edits a shared note.",
        inputs: [
            .writtenThrough(
                "title", schema: .string(maxLength: 20), nullDefault: "Untitled",
                read: { .string($0.notes.record(id: $0.id)?.title ?? "") }),
            .string("draft", \.draft),
        ],
        commands: [
            .immediate("rename", summary: "Sets the draft from a typed argument.", argument: Rename.self) { model, argument in
                model.draft = argument.to
                return .none
            }
        ],
        writeThrough: WriteThrough { model, write throws(ViewModelError) in
            do throws(SharedRecordError) {
                try await model.notes.update(id: model.id) { note in
                    if let title = write.string("title") { note.title = title }
                }
            } catch {
                throw error.viewModelError(path: "notes/\(model.id)")
            }
        }
    )

    struct Rename: CommandArgument {
        let to: String
        static let schema = Schema.object(["to": .text])
    }
}

@Suite("Written-through inputs and typed command arguments")
struct WriteThroughTests {
    @Test func aWrittenThroughInputIsCommittedToItsSharedModelNotAssigned() async throws {
        let notes = SharedCollection<Note>.inMemory("notes", firstNotes)
        let editor = NoteEditor(notes: notes, id: "a")
        try await editor.write(["title": "Renamed", "draft": "kept here"])
        #expect(notes.record(id: "a")?.title == "Renamed")
        #expect(notes.record(id: "a")?.version == 2)
        #expect(editor.draft == "kept here")
        #expect(editor.inputValues["title"] == "Renamed")
        // null stands for the input's default, already applied when the write-through sees it.
        try await editor.write(["title": nil])
        #expect(notes.record(id: "a")?.title == "Untitled")
    }

    @Test func aRefusedValueNeverReachesTheSharedModel() async throws {
        let notes = SharedCollection<Note>.inMemory("notes", firstNotes)
        let editor = NoteEditor(notes: notes, id: "a")
        await #expect(throws: ViewModelError.invalidInput(name: "title", reason: "longer than 20 characters")) {
            try await editor.write(["title": .string(String(repeating: "x", count: 21)), "draft": "not either"])
        }
        #expect(notes.record(id: "a")?.version == 1)
        #expect(editor.draft == "")
    }

    @Test func aDeletedModelRefusesTheWriteAsTheViewModelsOwn404() async throws {
        let notes = SharedCollection<Note>.inMemory("notes", firstNotes)
        try await notes.delete(id: "a")
        let editor = NoteEditor(notes: notes, id: "a")
        await #expect(throws: ViewModelError.notFound(path: "notes/a")) { try await editor.write(["title": "late"]) }
    }

    @Test func aTypedArgumentIsDecodedAfterItsSchemaAcceptedIt() async throws {
        let editor = NoteEditor(notes: .inMemory("notes", firstNotes), id: "a")
        _ = try await editor.execute("rename", ["to": "typed"])
        #expect(editor.draft == "typed")
        await #expect(throws: ViewModelError.self) { _ = try await editor.execute("rename", ["to": 7]) }
        await #expect(throws: ViewModelError.self) { _ = try await editor.execute("rename") }
        #expect(editor.draft == "typed")
    }
}
