/// Where the ``RecipeBook`` keeps its recipes durably. One small protocol so the features stay
/// free of the store: the binding layer adapts Bindery's session store to it, tests use
/// ``MemoryRecipeRepository``.
///
/// Every write names the version it replaces and is refused with
/// ``RecipeStoreError/conflict`` when that is not the stored one (another node wrote first).
public protocol RecipeRepository: Sendable {
    /// Every stored recipe, deleted ones included as tombstones.
    func loadAll() async throws(RecipeStoreError) -> [StoredRecipe]
    /// Stores `recipe` at `recipe.version`, replacing `expectedVersion` (nil for a new recipe).
    func save(_ recipe: Recipe, expectedVersion: Int?) async throws(RecipeStoreError)
    /// Stores a tombstone for `id` at `version`, replacing `expectedVersion`.
    func delete(id: String, version: Int, expectedVersion: Int) async throws(RecipeStoreError)
}

/// One stored recipe: its id, its version and its content, or nil once deleted (a tombstone).
public struct StoredRecipe: Sendable, Hashable {
    /// The recipe's id.
    public var id: String
    /// The stored version.
    public var version: Int
    /// The recipe; nil when deleted.
    public var recipe: Recipe?

    /// A stored recipe or tombstone.
    public init(id: String, version: Int, recipe: Recipe?) {
        self.id = id
        self.version = version
        self.recipe = recipe
    }
}

/// Why a recipe repository refused or failed a write.
public enum RecipeStoreError: Error, Sendable, Hashable {
    /// The stored version is not the expected one: another writer got there first.
    case conflict(id: String)
    /// Nothing was stored (disk full, store closed, database down).
    case unavailable(reason: String)
}
