import Bindery
import Observation

// A shared collection's records across the same rename: notes with a `title`, then with a
// `text`, without and with the record type's migration.

struct NoteV1: SharedRecord {
    var id: String
    var version = 1
    var title: String
}

struct NoteV2Unmigrated: SharedRecord {
    var id: String
    var version = 1
    var text: String
}

struct NoteV2: SharedRecord {
    var id: String
    var version = 1
    var text: String
    static var persistedMigrations: [PersistedMigration] { [.renaming("title", to: "text")] }
}

/// What a note type shows: its words.
protocol BoardNote: SharedRecord {
    var words: String { get }
    init(id: String, words: String)
}

extension NoteV1: BoardNote {
    var words: String { title }
    init(id: String, words: String) { self.init(id: id, title: words) }
}

extension NoteV2Unmigrated: BoardNote {
    var words: String { text }
    init(id: String, words: String) { self.init(id: id, text: words) }
}

extension NoteV2: BoardNote {
    var words: String { text }
    init(id: String, words: String) { self.init(id: id, text: words) }
}

/// Every note's words, and a command that adds one.
@Observable
final class Board<Note: BoardNote>: ViewModel {
    let commandStates = CommandStates()
    @ObservationIgnored let notes: SharedCollection<Note>

    init(notes: SharedCollection<Note>) {
        self.notes = notes
    }

    static var declaration: ViewModelDeclaration<Board> {
        ViewModelDeclaration<Board>(
            "Board", summary: "Shared notes.",
            outputs: [.init("notes", schema: .array(.text)) { .array($0.notes.records.map(\.words).sorted().map(JSONValue.string)) }],
            commands: [
                .deferred("add", summary: "Adds a note.", argument: BoardWords.self) { model, argument throws(ViewModelError) in
                    let words = argument.words
                    return {
                        _ = try await model.notes.add { Note(id: $0, words: words) }
                        return .none
                    }
                }
            ]
        )
    }
}

/// The words of a note to add.
struct BoardWords: CommandArgument {
    let words: String
    static let schema = Schema.named("Words", .object(["words": .string(maxLength: 100)]))
}
