import Bindery

/// The recipes, shared by every session of a server (seed 003's Core Data model layer): a
/// ``SharedCollection`` of ``Recipe``s named `recipes`, stored as `recipes/<id>`. Anyone reads
/// them; anyone signed in adds and edits them; only a recipe's owner deletes or restores it (an
/// administrator, the ones nobody owns).
public typealias RecipeBook = SharedCollection<Recipe>

extension SharedCollection where Record == Recipe {
    /// The recipe book as a server opens it: its first start stores `firstStart`.
    public static func recipes(firstStart: [Recipe] = FirstStartRecipes.all) -> RecipeBook {
        RecipeBook("recipes", firstStart: firstStart, writableBy: .signedIn, deletableBy: RecipeRules.deleters)
    }

    /// A book in memory holding `recipes` (tests), with the same rules.
    public static func inMemory(_ recipes: [Recipe] = FirstStartRecipes.all) -> RecipeBook {
        inMemory("recipes", recipes, writableBy: .signedIn, deletableBy: RecipeRules.deleters)
    }

    /// Every recipe, by name (then id).
    public var recipes: [Recipe] {
        records.sorted { ($0.name.lowercased(), $0.id) < ($1.name.lowercased(), $1.id) }
    }

    /// The recipe `id`, or nil when there is none (never was, or deleted).
    public func recipe(id: String) -> Recipe? { record(id: id) }

    /// What a page of the recipe `id` shows: the recipe, or once deleted (while the deletion can
    /// be undone) the recipe as it was; nil when there is neither.
    public func shownRecipe(id: String) -> Recipe? { record(id: id) ?? deletion(of: id)?.record }

    /// Whether the pages of the recipe `id` are gone: it does not exist and cannot be restored.
    public func isGone(id: String) -> Bool { !contains(id: id) && deletion(of: id) == nil }

    /// Adds a recipe named `name` with no steps, owned by `owner`; answers it once it is durable.
    public func add(name: String, owner: User? = nil) async throws(SharedRecordError) -> Recipe {
        try await add { id in Recipe(id: id, name: name, owner: owner?.id, ownerName: owner?.name) }
    }
}
