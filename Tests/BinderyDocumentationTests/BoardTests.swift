import Bindery
import BinderyTesting
import Testing

/// The article "Shared models and collaboration": two sessions over one shared collection.
@MainActor
struct BoardTests {
    @Test func aCardAddedInOneSessionShowsInAnother() async throws {
        let cards = SharedCollection<Card>.inMemory("cards", [Card(id: "c1", title: "Welcome")])
        let mine = ViewModelTester(BoardViewModel(cards: cards))
        let theirs = ViewModelTester(BoardViewModel(cards: cards))
        #expect(theirs.state.outputs["titles"] == ["Welcome"])
        try mine.execute("add", ["title": "Agenda"]) { $0.commands["add"]?.executing = true }
        await mine.settle {
            $0.outputs["titles"]?.append("Agenda")
            $0.commands["add"]?.executing = false
        }
        await theirs.settle { $0.outputs["titles"]?.append("Agenda") }
        mine.finish()
        theirs.finish()
    }

    @Test func aTitleIsWrittenThroughAndADeletedCardComesBack() async throws {
        let cards = SharedCollection<Card>.inMemory("cards", [Card(id: "c1", title: "Welcome")])
        let board = BoardViewModel(cards: cards)
        let card = ViewModelTester(try #require(board.page(id: "c1")), path: "board/cards/c1")
        let list = ViewModelTester(board)
        try await card.write(["title": "Hello"]) { $0.inputs["title"] = "Hello" }
        await list.settle { $0.outputs["titles"] = ["Hello"] }
        #expect(cards.record(id: "c1")?.version == 2)
        try card.execute("delete") {
            $0.commands["delete"]?.executing = true
            $0.commands["delete"]?.enabled = false
        }
        await card.settle {
            $0.inputs["title"] = ""
            $0.outputs["deleted"] = true
            $0.commands["delete"]?.executing = false
            $0.commands["restore"]?.enabled = true
        }
        await list.settle { $0.outputs["titles"] = [] }
        try card.execute("restore") {
            $0.commands["restore"]?.executing = true
            $0.commands["restore"]?.enabled = false
        }
        await card.settle {
            $0.inputs["title"] = "Hello"
            $0.outputs["deleted"] = false
            $0.commands["restore"]?.executing = false
            $0.commands["delete"]?.enabled = true
        }
        await list.settle { $0.outputs["titles"] = ["Hello"] }
        card.finish()
        list.finish()
    }
}
