import Synchronization

/// A ``RecipeRepository`` in memory, for tests and throwaway runs; it can be told to fail.
public final class MemoryRecipeRepository: RecipeRepository {
    private let stored = Mutex<[String: StoredRecipe]>([:])
    private let failing = Mutex(false)

    /// An empty repository, or one holding `recipes`.
    public init(_ recipes: [Recipe] = []) {
        stored.withLock { stored in
            for recipe in recipes { stored[recipe.id] = StoredRecipe(id: recipe.id, version: recipe.version, recipe: recipe) }
        }
    }

    /// Makes every later write fail with ``RecipeStoreError/unavailable(reason:)`` (or work again).
    public func setFailing(_ fails: Bool) {
        failing.withLock { $0 = fails }
    }

    /// Every stored recipe and tombstone, by id.
    public func loadAll() async throws(RecipeStoreError) -> [StoredRecipe] {
        stored.withLock { Array($0.values).sorted { $0.id < $1.id } }
    }

    /// Stores `recipe` if `expectedVersion` is the stored version.
    public func save(_ recipe: Recipe, expectedVersion: Int?) async throws(RecipeStoreError) {
        try write(StoredRecipe(id: recipe.id, version: recipe.version, recipe: recipe), expectedVersion: expectedVersion)
    }

    /// Stores a tombstone if `expectedVersion` is the stored version.
    public func delete(id: String, version: Int, expectedVersion: Int) async throws(RecipeStoreError) {
        try write(StoredRecipe(id: id, version: version, recipe: nil), expectedVersion: expectedVersion)
    }

    private func write(_ record: StoredRecipe, expectedVersion: Int?) throws(RecipeStoreError) {
        if failing.withLock({ $0 }) { throw .unavailable(reason: "the test repository fails") }
        let result: Result<Void, RecipeStoreError> = stored.withLock { stored in
            guard stored[record.id]?.version == expectedVersion else { return .failure(.conflict(id: record.id)) }
            stored[record.id] = record
            return .success(())
        }
        try result.get()
    }
}
