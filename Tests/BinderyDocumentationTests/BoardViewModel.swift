import Bindery
import Observation

/// A card every session shares: a title written through, a text typed together.
struct Card: SharedRecord {
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

/// The board: every card's title, the same in every session; `cards/{id}` is one card.
@Observable
final class BoardViewModel: ViewModel {
    let commandStates = CommandStates()
    @ObservationIgnored let cards: SharedCollection<Card>
    @ObservationIgnored private var pages: [String: CardViewModel] = [:]

    init(cards: SharedCollection<Card>) {
        self.cards = cards
    }

    var sorted: [Card] { cards.records.sorted { $0.id < $1.id } }

    func page(id: String) -> CardViewModel? {
        guard cards.record(id: id) != nil || cards.deletion(of: id) != nil else { return nil }
        if let page = pages[id] { return page }
        let page = CardViewModel(cards: cards, id: id)
        pages[id] = page
        return page
    }

    struct Title: CommandArgument {
        let title: String
        static let schema = Schema.named("CardTitle", .object(["title": .string(maxLength: 100)]))
    }

    static let declaration = ViewModelDeclaration<BoardViewModel>(
        "Board",
        summary: "The cards everyone shares.",
        outputs: [.init("titles", schema: .array(.text)) { .array($0.sorted.map { .string($0.title) }) }],
        commands: [
            .deferred("add", summary: "Adds a card.", argument: Title.self, policy: .concurrent) { model, argument in
                let cards = model.cards
                return {
                    _ = try await cards.add { id in Card(id: id, title: argument.title) }
                    return .none
                }
            }
        ],
        children: [
            ChildRoute(
                "card", title: "Card", titleMember: "title", segment: "cards", parameter: "id", parameterSchema: .text,
                child: CardViewModel.declaration.schema, resolve: { model, id in model.page(id: id) }
            )
        ],
        persists: PersistedState(save: { _ in .null }, restore: { _, _ in })
    )
}

/// One card: its title written through to the record, its text edited together.
@Observable
final class CardViewModel: ViewModel {
    let commandStates = CommandStates()
    @ObservationIgnored let cards: SharedCollection<Card>
    let id: String

    init(cards: SharedCollection<Card>, id: String) {
        self.cards = cards
        self.id = id
    }

    /// Gone once deleted and forgotten; while the deletion is remembered the page shows it.
    var isGone: Bool { cards.record(id: id) == nil && cards.deletion(of: id) == nil }

    static let declaration = ViewModelDeclaration<CardViewModel>(
        "Card",
        summary: "One card.",
        inputs: [
            .writtenThrough("title", schema: .string(maxLength: 100), read: { .string($0.cards.record(id: $0.id)?.title ?? "") }),
            .collaborative("text", maxLength: 2000, text: { $0.cards.collaborativeText(id: $0.id, key: "text") }),
        ],
        outputs: [.boolean("deleted") { $0.cards.record(id: $0.id) == nil }],
        commands: [
            .deferred("delete", summary: "Deletes the card.", enabled: { $0.cards.record(id: $0.id) != nil }) { model, _ in
                let (cards, id) = (model.cards, model.id)
                return {
                    try await cards.delete(id: id, by: Viewer.current?.collaborator.name)
                    return .none
                }
            },
            .deferred("restore", summary: "Brings the deleted card back.", enabled: { $0.cards.record(id: $0.id) == nil }) {
                model, _ in
                let (cards, id) = (model.cards, model.id)
                return {
                    _ = try await cards.restore(id: id)
                    return .none
                }
            },
        ],
        persists: PersistedState(save: { _ in .null }, restore: { _, _ in }),
        writeThrough: WriteThrough { model, write throws(ViewModelError) in
            guard let title = write.string("title") else { return }
            do throws(SharedRecordError) {
                try await model.cards.update(id: model.id) { $0.title = title }
            } catch {
                throw error.viewModelError(path: model.servedPath)
            }
        }
    )
}

extension BoardViewModel {
    /// The app: one `board` screen over the shared `cards`, which it opens over its store.
    static func app(cards: SharedCollection<Card> = SharedCollection("cards")) -> BinderyApp {
        BinderyApp(screens: [Screen("board", title: "Board") { BoardViewModel(cards: cards) }], sharedModels: [cards])
    }
}
