import Bindery
import Observation

/// A note that belongs to one user: a title written through and a text typed together.
struct UserNote: SharedRecord {
    var id: String
    var version = 1
    var title: String
    var text = ""

    var collaborativeTexts: [String: String] { ["text": text] }

    mutating func setCollaborativeText(_ key: String, to value: String) -> Bool {
        guard key == "text" else { return false }
        text = value
        return true
    }
}

/// The users tests' app: each signed-in user's notes (``UserRecords``), readable by signed-in
/// sessions only; `notes/{id}` is one of the viewer's own notes.
@Observable
final class NotesViewModel: ViewModel {
    let commandStates = CommandStates()
    @ObservationIgnored let notes: UserRecords<UserNote>
    @ObservationIgnored let viewer: Viewer
    @ObservationIgnored private var pages: [String: UserNoteViewModel] = [:]

    init(notes: UserRecords<UserNote>, viewer: Viewer) {
        self.notes = notes
        self.viewer = viewer
    }

    /// The viewer's notes, by title.
    var mine: [UserNote] { (notes.of(viewer)?.records ?? []).sorted { ($0.title, $0.id) < ($1.title, $1.id) } }

    /// The page of the viewer's note `id`; nil for anyone else's.
    func page(id: String) -> UserNoteViewModel? {
        guard let collection = notes.of(viewer), collection.record(id: id) != nil else { return nil }
        if let page = pages[id], page.collection === collection { return page }
        let page = UserNoteViewModel(collection: collection, id: id)
        pages[id] = page
        return page
    }

    struct Title: CommandArgument {
        let title: String
        static let schema = Schema.named("NoteTitle", .object(["title": .string(maxLength: 100)]))
    }

    static let declaration = ViewModelDeclaration<NotesViewModel>(
        "Notes", summary: "My notes.",
        outputs: [
            .init("titles", schema: .array(.text)) { .array($0.mine.map { .string($0.title) }) },
            .init("ids", schema: .array(.text)) { .array($0.mine.map { .string($0.id) }) },
        ],
        commands: [
            .deferred("add", summary: "Adds a note.", argument: Title.self, navigates: true, policy: .concurrent) {
                model, argument throws(ViewModelError) in
                guard let collection = model.notes.of(model.viewer) else { throw ViewModelError.signInRequired }
                let title = argument.title
                return {
                    let note = try await collection.add { id in UserNote(id: id, title: title) }
                    return CommandResult(navigate: "/notes/\(note.id)")
                }
            }
        ],
        children: [
            ChildRoute(
                "note", title: "Note", segment: "", parameter: "id", parameterSchema: .text,
                child: UserNoteViewModel.declaration.schema, resolve: { model, id in model.page(id: id) }
            )
        ],
        persists: PersistedState(save: { _ in .null }, restore: { _, _ in })
    )
    .readable(by: .signedIn)
}

/// One note of the viewer's.
@Observable
final class UserNoteViewModel: ViewModel {
    let commandStates = CommandStates()
    @ObservationIgnored let collection: SharedCollection<UserNote>
    let id: String

    init(collection: SharedCollection<UserNote>, id: String) {
        self.collection = collection
        self.id = id
    }

    var isGone: Bool { collection.record(id: id) == nil && collection.deletion(of: id) == nil }

    static let declaration = ViewModelDeclaration<UserNoteViewModel>(
        "Note", summary: "One of my notes.",
        inputs: [
            .writtenThrough("title", schema: .string(maxLength: 100), read: { .string($0.collection.record(id: $0.id)?.title ?? "") }),
            .collaborative("text", maxLength: 1000, text: { $0.collection.collaborativeText(id: $0.id, key: "text") }),
        ],
        commands: [
            .deferred("delete", summary: "Deletes the note.") { model, _ in
                let (collection, id) = (model.collection, model.id)
                return {
                    try await collection.delete(id: id)
                    return .none
                }
            }
        ],
        persists: PersistedState(save: { _ in .null }, restore: { _, _ in }),
        writeThrough: WriteThrough { model, write throws(ViewModelError) in
            guard let title = write.string("title") else { return }
            do throws(SharedRecordError) {
                try await model.collection.update(id: model.id) { $0.title = title }
            } catch {
                throw error.viewModelError(path: model.servedPath)
            }
        }
    )
}

extension NotesViewModel {
    /// Two users, Ada and Grace, whose password is "secret-" and their id.
    static let users = Users { credentials in
        guard ["ada", "grace"].contains(credentials.username), credentials.password == "secret-\(credentials.username)" else {
            return nil
        }
        return User(id: credentials.username, name: credentials.username.capitalized, roles: credentials.username == "ada" ? ["admin"] : [])
    }

    /// The app of one `notes` screen over `notes`.
    static func app(notes: UserRecords<UserNote> = UserRecords("notes")) -> TestServer.AppFactory {
        { _ in
            BinderyApp(
                screens: [Screen("notes", title: "Notes") { viewer in NotesViewModel(notes: notes, viewer: viewer) }],
                sharedModels: [notes], users: users
            )
        }
    }
}
