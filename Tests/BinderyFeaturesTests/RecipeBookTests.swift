import BinderyFeatures
import Observation
import Synchronization
import Testing

/// The shared model layer: durable before visible, versions, conditional and concurrent changes.
@Suite("Recipe book", .timeLimit(.minutes(1)))
struct RecipeBookTests {
    func openBook() async throws -> (RecipeBook, MemoryRecipeRepository) {
        let repository = MemoryRecipeRepository()
        let book = try await RecipeBook.open(repository: repository)
        return (book, repository)
    }

    @Test func firstStartStoresTheFirstStartRecipesOnce() async throws {
        let (book, repository) = try await openBook()
        #expect(book.recipes.map(\.id).sorted() == ["c41", "d76"])
        #expect(try await repository.loadAll().map(\.version) == [1, 1])
        try await book.delete(id: "d76")
        try await book.delete(id: "c41")
        // Everything deleted is not a first start: nothing comes back.
        let reopened = try await RecipeBook.open(repository: repository)
        #expect(reopened.recipes.isEmpty)
    }

    @Test func everyChangeRaisesTheVersionByOneAndIsStoredFirst() async throws {
        let (book, repository) = try await openBook()
        let renamed = try await book.update(id: "c41") { $0.name = "C-41 at home" }
        #expect(renamed.version == 2)
        let stored = try await repository.loadAll().first { $0.id == "c41" }
        #expect(stored?.version == 2)
        #expect(stored?.recipe?.name == "C-41 at home")
        #expect(book.recipe(id: "c41")?.name == "C-41 at home")
    }

    @Test func aChangeThatChangesNothingCommitsNothing() async throws {
        let (book, _) = try await openBook()
        let same = try await book.update(id: "c41") { $0.name = FirstStartRecipes.c41.name }
        #expect(same.version == 1)
    }

    @Test func aFailedCommitChangesNothing() async throws {
        let (book, repository) = try await openBook()
        repository.setFailing(true)
        await #expect(throws: RecipeError.self) { try await book.update(id: "c41") { $0.name = "lost" } }
        await #expect(throws: RecipeError.self) { try await book.add(name: "lost") }
        #expect(book.recipe(id: "c41")?.name == FirstStartRecipes.c41.name)
        #expect(book.recipe(id: "c41")?.version == 1)
        #expect(book.recipes.count == 2)
        repository.setFailing(false)
        #expect(try await book.update(id: "c41") { $0.name = "kept" }.version == 2)
    }

    @Test func aConditionalChangeOfAStaleVersionIsRefused() async throws {
        let (book, _) = try await openBook()
        try await book.update(id: "c41") { $0.blurb = "first" }
        await #expect(throws: RecipeError.stale(id: "c41", current: 2)) {
            try await book.update(id: "c41", expectedVersion: 1) { $0.blurb = "second" }
        }
        #expect(book.recipe(id: "c41")?.blurb == "first")
    }

    @Test func plainChangesKeepEachOthersFields() async throws {
        let (book, _) = try await openBook()
        async let name = book.update(id: "c41") { $0.name = "A" }
        async let blurb = book.update(id: "c41") { $0.blurb = "B" }
        _ = try await (name, blurb)
        let recipe = try #require(book.recipe(id: "c41"))
        #expect(recipe.name == "A" && recipe.blurb == "B")
        #expect(recipe.version == 3)
    }

    @Test func anotherWriterFirstIsAConflictAndTheBookReloads() async throws {
        let (book, repository) = try await openBook()
        var elsewhere = FirstStartRecipes.c41
        elsewhere.version = 2
        elsewhere.name = "from another node"
        try await repository.save(elsewhere, expectedVersion: 1)
        await #expect(throws: RecipeError.conflict(id: "c41")) { try await book.update(id: "c41") { $0.name = "mine" } }
        #expect(book.recipe(id: "c41")?.name == "from another node")
        #expect(book.recipe(id: "c41")?.version == 2)
    }

    @Test func observersHearAChangeAfterItIsVisible() async throws {
        let (book, _) = try await openBook()
        let seen = Mutex<String?>(nil)
        withObservationTracking {
            _ = book.recipe(id: "c41")
        } onChange: {
            // Called on the committing task: the new value is already readable.
            seen.withLock { $0 = book.recipe(id: "c41")?.name }
        }
        try await book.update(id: "c41") { $0.name = "observed" }
        #expect(seen.withLock { $0 } == "observed")
    }

    @Test func deletedRecipesAreGoneAndCannotBeChanged() async throws {
        let (book, _) = try await openBook()
        try await book.delete(id: "d76")
        #expect(book.recipe(id: "d76") == nil)
        #expect(!book.contains(id: "d76"))
        await #expect(throws: RecipeError.notFound(id: "d76")) { try await book.update(id: "d76") { $0.name = "x" } }
        await #expect(throws: RecipeError.notFound(id: "d76")) { try await book.delete(id: "d76") }
    }
}

/// Two nodes starting together on one empty store both try the first start: neither fails.
@Suite("Recipe book first start")
struct RecipeBookFirstStartTests {
    @Test func aFirstStartRaceIsNotAFailure() async throws {
        // This node found the store empty, but another node stored c41 before this one could.
        let repository = LateRepository(MemoryRecipeRepository([FirstStartRecipes.c41]))
        let book = try await RecipeBook.open(repository: repository)
        #expect(book.recipes.map(\.id) == ["c41", "d76"])
        #expect(try await repository.loadAll().map(\.version) == [1, 1])
    }

    @Test func aRecipeStoredByAnotherNodeDuringFirstStartIsKept() async throws {
        let repository = MemoryRecipeRepository([FirstStartRecipes.c41])
        // The store already holds c41 (another node got there first), so this is not a first start.
        let book = try await RecipeBook.open(repository: repository)
        #expect(book.recipes.map(\.id) == ["c41"])
    }
}

/// A repository whose first `loadAll` answers nothing: what a node sees when another node stores
/// the first-start recipes right after it looked.
final class LateRepository: RecipeRepository {
    private let inner: MemoryRecipeRepository
    private let looked = Mutex(false)

    init(_ inner: MemoryRecipeRepository) { self.inner = inner }

    func loadAll() async throws(RecipeStoreError) -> [StoredRecipe] {
        if !looked.withLock({ $0 }) {
            looked.withLock { $0 = true }
            return []
        }
        return try await inner.loadAll()
    }

    func save(_ recipe: Recipe, expectedVersion: Int?) async throws(RecipeStoreError) {
        try await inner.save(recipe, expectedVersion: expectedVersion)
    }

    func delete(id: String, version: Int, expectedVersion: Int) async throws(RecipeStoreError) {
        try await inner.delete(id: id, version: version, expectedVersion: expectedVersion)
    }
}
