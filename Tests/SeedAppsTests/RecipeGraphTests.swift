import SeedApps
import BinderyRuntime
import BinderyTestSupport
import BinderyUpstream
import Testing

/// The recipe screens in view-model graphs (sessions) sharing one book: seed 003's two-way
/// binding between view models and the model, across sessions.
@MainActor
@Suite("Recipes in view-model graphs", .timeLimit(.minutes(1)))
struct RecipeGraphTests {
    /// Two sessions' graphs over one book.
    func twoSessions() -> (RecipeBook, ViewModelGraph, ViewModelGraph) {
        let (upstream, clock) = makeTestUpstream()
        let book = RecipeBook.inMemory()
        let screens = FeatureScreens.all(upstream: upstream, recipes: book, clock: clock)
        return (book, ViewModelGraph(screens: screens), ViewModelGraph(screens: screens))
    }

    @Test func theListShowsEveryRecipeWithItsStepCount() async throws {
        let (_, graph, _) = twoSessions()
        let rows = try #require(try await graph.snapshot("recipes").output("recipes")?.arrayValue)
        #expect(rows.map { $0.objectValue?["id"] } == ["c41", "d76"])
        let c41 = try #require(rows.first?.objectValue)
        #expect(c41["path"] == "recipes/c41")
        // Outside any request nothing is access-checked: deletable. First-start recipes are nobody's.
        #expect(
            c41["outputs"] == [
                "name": "C-41 colour negative", "filmType": "colourNegative", "stepCount": 4, "ownerName": nil, "deletable": true,
                "favourite": false,
            ])
    }

    @Test func anEditInOneSessionReachesTheOthersDetailLive() async throws {
        let (book, first, second) = twoSessions()
        let before = try await second.snapshot("recipes/c41")
        let events = ListSnapshotRecorder()
        let watch = try await second.watch("recipes/c41", after: before.version, send: events.send, end: {})

        let edited = try await first.write("recipes/c41/edit", patch: ["name": "C-41 (home kit)"])
        #expect(try edited.decoded().objectValue?["inputs"]?.objectValue?["name"] == "C-41 (home kit)")
        #expect(book.recipe(id: "c41")?.name == "C-41 (home kit)")

        #expect(await settle { events.received.last.flatMap { try? $0.output("name") } == "C-41 (home kit)" })
        #expect(try await second.snapshot("recipes/c41").version > before.version)
        #expect(
            try await second.snapshot("recipes").output("recipes")?.arrayValue?.first?.objectValue?["outputs"]?
                .objectValue?["name"] == "C-41 (home kit)")
        await second.unwatch("recipes/c41", id: watch)
    }

    @Test func twoEditorsOfOneRecipeSeeEachOther() async throws {
        let (_, first, second) = twoSessions()
        _ = try await second.snapshot("recipes/d76/edit")
        _ = try await first.write("recipes/d76/edit", patch: ["blurb": "from the first tab"])
        #expect(
            await settle {
                (try? await second.snapshot("recipes/d76/edit").decoded().objectValue?["inputs"]?.objectValue?["blurb"])
                    == "from the first tab"
            })
    }

    @Test func nullFilmTypeFallsBackToColourNegative() async throws {
        let (book, graph, _) = twoSessions()
        _ = try await graph.write("recipes/d76/edit", patch: ["filmType": nil])
        #expect(book.recipe(id: "d76")?.filmType == .colourNegative)
        _ = try await graph.write("recipes/d76/edit", patch: ["filmType": "colourSlide"])
        #expect(book.recipe(id: "d76")?.filmType == .colourSlide)
    }

    @Test func badValuesAreRefusedNamingTheFieldAndChangeNothing() async throws {
        let (book, graph, _) = twoSessions()
        let before = try await graph.snapshot("recipes/c41/edit")
        await #expect(throws: ViewModelError.invalidInput(name: "name", reason: "must not be empty")) {
            try await graph.write("recipes/c41/edit", patch: ["name": "   ", "blurb": "no"])
        }
        await #expect(throws: ViewModelError.self) { try await graph.write("recipes/c41/edit", patch: ["filmType": "polaroid"]) }
        await #expect(throws: ViewModelError.self) {
            try await graph.execute(
                "recipes/c41/edit", command: "addStep", argument: ["name": "Hot", "durationSeconds": 10, "temperatureCelsius": 120])
        }
        await #expect(throws: ViewModelError.self) {
            try await graph.execute("recipes/c41/edit", command: "removeStep", argument: ["index": 4])
        }
        #expect(book.recipe(id: "c41") == FirstStartRecipes.c41)
        #expect(try await graph.snapshot("recipes/c41/edit").version == before.version)
    }

    @Test func ifMatchProtectsAnEditFromAChangeMadeMeanwhile() async throws {
        let (book, first, second) = twoSessions()
        let seen = try await first.snapshot("recipes/c41/edit")
        _ = try await second.write("recipes/c41/edit", patch: ["name": "theirs"])
        #expect(await settle { (try? await first.snapshot("recipes/c41/edit").version) != seen.version })
        await #expect(throws: ViewModelError.self) {
            try await first.write("recipes/c41/edit", patch: ["name": "mine"], ifVersion: [seen.version])
        }
        #expect(book.recipe(id: "c41")?.name == "theirs")
        let current = try await first.snapshot("recipes/c41/edit")
        _ = try await first.write("recipes/c41/edit", patch: ["name": "mine"], ifVersion: [current.version])
        #expect(book.recipe(id: "c41")?.name == "mine")
    }

    @Test func stepCommandsChangeTheSharedSteps() async throws {
        let (book, graph, _) = twoSessions()
        let wait = Duration.seconds(30)
        _ = try await graph.execute(
            "recipes/d76/edit", command: "addStep", argument: ["name": "Hypo clear", "durationSeconds": 120], wait: wait
        )
        #expect(book.recipe(id: "d76")?.steps.map(\.name) == ["Developer", "Stop bath", "Fixer", "Wash", "Hypo clear"])
        _ = try await graph.execute("recipes/d76/edit", command: "moveStep", argument: ["from": 4, "to": 3], wait: wait)
        #expect(book.recipe(id: "d76")?.steps.map(\.name) == ["Developer", "Stop bath", "Fixer", "Hypo clear", "Wash"])
        _ = try await graph.execute("recipes/d76/edit", command: "removeStep", argument: ["index": 1], wait: wait)
        #expect(book.recipe(id: "d76")?.steps.map(\.name) == ["Developer", "Fixer", "Hypo clear", "Wash"])
        #expect(book.recipe(id: "d76")?.version == 4)
    }

    @Test func addNavigatesToTheNewRecipesEditorAndSelectToItsDetail() async throws {
        let (book, graph, _) = twoSessions()
        let added = try await graph.execute("recipes", command: "add", argument: ["name": "E-6"], wait: .seconds(30))
        guard case .completed(_, let result) = added, let target = result.navigate else {
            Issue.record("add did not complete: \(added)")
            return
        }
        let id = try #require(book.recipes.first { $0.name == "E-6" }?.id)
        #expect(target == "/recipes/\(id)/edit")
        let selected = try await graph.execute("recipes", command: "select", argument: ["id": .string(id)])
        guard case .completed(_, let selection) = selected else { throw ViewModelError.notFound(path: id) }
        #expect(selection.navigate == "/recipes/\(id)")
    }

    @Test func startTimerIsEnabledOnlyWithSteps() async throws {
        let (book, graph, _) = twoSessions()
        let recipe = try await book.add(name: "Empty")
        await #expect(throws: ViewModelError.commandDisabled(name: "startTimer")) {
            try await graph.execute("recipes/\(recipe.id)", command: "startTimer", argument: nil)
        }
        #expect(try await graph.snapshot("recipes/\(recipe.id)").output("canStartTimer") == false)
        let started = try await graph.execute("recipes/c41", command: "startTimer", argument: nil)
        guard case .completed(_, let result) = started else { throw ViewModelError.notFound(path: "c41") }
        #expect(result.navigate == "/recipes/c41/timer")
    }

    @Test func aDeepLinkToTheEditorWorksInAFreshSession() async throws {
        let (_, graph, _) = twoSessions()
        let edit = try await graph.snapshot("recipes/c41/edit")
        #expect(
            try edit.decoded().objectValue?["inputs"] == [
                "name": "C-41 colour negative", "blurb": .string(FirstStartRecipes.c41.blurb), "filmType": "colourNegative",
            ])
    }

    @Test func aDeletedRecipesPagesShowWhatItWasUntilRestored() async throws {
        let (_, first, second) = twoSessions()
        let edit = try await second.snapshot("recipes/d76/edit")
        let ended = ListSnapshotRecorder()
        _ = try await second.watch("recipes/d76/timer", after: 0, send: { _ in }, end: { ended.send(edit) })

        _ = try await first.execute("recipes", command: "delete", argument: ["id": "d76"], wait: .seconds(30))
        #expect(await settle { !ended.received.isEmpty })
        await #expect(throws: ViewModelError.notFound(path: "recipes/d76/timer")) { try await second.snapshot("recipes/d76/timer") }
        let deleted = try await second.snapshot("recipes/d76/edit")
        #expect(deleted.version > edit.version)
        #expect(try deleted.output("isDeleted") == true)
        #expect(try deleted.decoded().objectValue?["inputs"]?.objectValue?["name"] == "D-76 Tri-X 400")
        #expect(try await second.snapshot("recipes").output("recipes")?.arrayValue?.count == 1)

        _ = try await second.execute("recipes/d76/edit", command: "restore", argument: nil, wait: .seconds(30))
        #expect(try await first.snapshot("recipes/d76").output("isDeleted") == false)
        #expect(try await first.snapshot("recipes").output("recipes")?.arrayValue?.count == 2)
    }
}
