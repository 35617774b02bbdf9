import Observation
import Synchronization

/// The recipes, shared by every session of a server process (seed 003's Core Data model layer).
///
/// Reads are synchronous and report themselves to Observation, so a view model in any session
/// whose snapshot read a recipe is rendered again when the book changes: the session's change
/// callback is thread-safe and schedules a flush on that session's actor.
///
/// Changes are durable before they are visible: each is committed to the ``RecipeRepository``
/// first, then applied in memory (which notifies every session). Commits run one at a time, and
/// each one raises the recipe's version by 1. A failed commit changes nothing.
public final class RecipeBook: Observable, Sendable {
    private struct Contents {
        /// The live recipes by id.
        var recipes: [String: Recipe] = [:]
        /// The stored version of every id, deleted ones (tombstones) included.
        var versions: [String: Int] = [:]
    }

    private let contents = Mutex(Contents())
    private let registrar = ObservationRegistrar()
    private let repository: any RecipeRepository
    private let queue = CommitQueue()
    private let makeID: @Sendable () -> String

    /// A book over `repository` holding what it stores (`stored`, as ``RecipeRepository/loadAll()``
    /// answered); `makeID` names new recipes.
    public init(
        repository: any RecipeRepository, stored: [StoredRecipe], makeID: @escaping @Sendable () -> String = RecipeBook.randomID
    ) {
        self.repository = repository
        self.makeID = makeID
        contents.withLock { contents in
            for record in stored { Self.install(record, into: &contents) }
        }
    }

    /// Loads the book from `repository`; when it holds no recipe at all (first start), stores
    /// `firstStart` first.
    public static func open(
        repository: any RecipeRepository, firstStart: [Recipe] = FirstStartRecipes.all,
        makeID: @escaping @Sendable () -> String = RecipeBook.randomID
    ) async throws(RecipeStoreError) -> RecipeBook {
        var stored = try await repository.loadAll()
        if stored.isEmpty {
            for recipe in firstStart {
                var first = recipe
                first.version = 1
                do throws(RecipeStoreError) {
                    try await repository.save(first, expectedVersion: nil)
                } catch .conflict {
                    // Another node starting at the same time stored it first.
                }
            }
            stored = try await repository.loadAll()
        }
        return RecipeBook(repository: repository, stored: stored, makeID: makeID)
    }

    /// A book in memory holding the first-start recipes (tests, and servers given no book).
    public static func inMemory(_ recipes: [Recipe] = FirstStartRecipes.all) -> RecipeBook {
        let stored = recipes.map { StoredRecipe(id: $0.id, version: $0.version, recipe: $0) }
        return RecipeBook(repository: MemoryRecipeRepository(recipes), stored: stored)
    }

    /// `r` and 8 random hex digits: never `events` or `commands`, which address other things.
    @Sendable public static func randomID() -> String {
        let digits = String(UInt32.random(in: .min ... .max), radix: 16)
        return "r" + String(repeating: "0", count: 8 - digits.count) + digits
    }

    // MARK: Reading

    /// Every recipe, by name (then id).
    public var recipes: [Recipe] {
        registrar.access(self, keyPath: \.recipes)
        return contents.withLock { Array($0.recipes.values) }.sorted {
            ($0.name.lowercased(), $0.id) < ($1.name.lowercased(), $1.id)
        }
    }

    /// The recipe `id`, or nil when there is none (never was, or deleted).
    public func recipe(id: String) -> Recipe? {
        registrar.access(self, keyPath: \.recipes)
        return contents.withLock { $0.recipes[id] }
    }

    /// Whether the recipe `id` exists, without reporting the read to Observation.
    public func contains(id: String) -> Bool {
        contents.withLock { $0.recipes[id] != nil }
    }

    // MARK: Changing

    /// Adds a recipe named `name` with no steps; answers it once it is durable.
    public func add(name: String) async throws(RecipeError) -> Recipe {
        let recipe = Recipe(id: makeID(), name: name)
        let result = await commit(recipe.id) { current, _ throws(RecipeError) in
            guard current == nil else { throw .conflict(id: recipe.id) }
            return recipe
        }
        guard let added = try result.get() else { throw .notFound(id: recipe.id) }
        return added
    }

    /// Changes the recipe `id` with `change` (applied to its current value, so changes to other
    /// fields made meanwhile are kept). With `expectedVersion`, only while the recipe is still at
    /// that version. A change that changes nothing commits nothing. Answers the new recipe.
    @discardableResult
    public func update(
        id: String, expectedVersion: Int? = nil, _ change: @escaping @Sendable (inout Recipe) throws(RecipeError) -> Void
    ) async throws(RecipeError) -> Recipe {
        let result = await commit(id) { current, _ throws(RecipeError) in
            guard var recipe = current else { throw .notFound(id: id) }
            if let expectedVersion, expectedVersion != recipe.version { throw .stale(id: id, current: recipe.version) }
            try change(&recipe)
            return recipe
        }
        guard let updated = try result.get() else { throw .notFound(id: id) }
        return updated
    }

    /// Deletes the recipe `id` (a tombstone in the store).
    public func delete(id: String) async throws(RecipeError) {
        let result = await commit(id) { current, _ throws(RecipeError) in
            guard current != nil else { throw .notFound(id: id) }
            return nil
        }
        _ = try result.get()
    }

    /// Reloads every recipe from the repository and shows what changed (another node wrote it).
    public func refresh() async {
        await queue.run { [self] in
            guard let stored = try? await repository.loadAll() else { return }
            apply(stored)
        }
    }

    /// Reloads the recipe `id` when the store holds a newer version than the book (another node
    /// committed `version`); sessions bound to it follow.
    public func refresh(id: String, toVersion version: Int) async {
        guard contents.withLock({ $0.versions[id] ?? 0 }) < version else { return }
        await queue.run { [self] in
            guard let stored = try? await repository.loadAll() else { return }
            apply(stored.filter { $0.id == id })
        }
    }

    // MARK: Internals

    /// In the commit queue: plans the new value from the current one (nil deletes), commits it
    /// to the repository, then shows it.
    private func commit(
        _ id: String, plan: @escaping @Sendable (Recipe?, Int?) throws(RecipeError) -> Recipe?
    ) async -> Result<Recipe?, RecipeError> {
        await queue.run { [self] () async -> Result<Recipe?, RecipeError> in
            let (current, stored) = contents.withLock { ($0.recipes[id], $0.versions[id]) }
            let planned: Recipe?
            do throws(RecipeError) { planned = try plan(current, stored) } catch { return .failure(error) }
            if let planned, let current, planned == current { return .success(current) }
            let version = (stored ?? 0) + 1
            let next = planned.map { recipe -> Recipe in
                var recipe = recipe
                recipe.version = version
                return recipe
            }
            do throws(RecipeStoreError) {
                if let next {
                    try await repository.save(next, expectedVersion: stored)
                } else if let stored {
                    try await repository.delete(id: id, version: version, expectedVersion: stored)
                }
            } catch {
                switch error {
                case .conflict:
                    if let records = try? await repository.loadAll() { apply(records.filter { $0.id == id }) }
                    return .failure(.conflict(id: id))
                case .unavailable(let reason):
                    return .failure(.unavailable(reason: reason))
                }
            }
            apply([StoredRecipe(id: id, version: version, recipe: next)])
            return .success(next)
        }
    }

    /// Shows stored records newer than what the book holds, then notifies observers (after the
    /// change, so a session that renders at once already reads the new value).
    private func apply(_ records: [StoredRecipe]) {
        let changed = contents.withLock { contents in
            var changed = false
            for record in records where record.version > (contents.versions[record.id] ?? 0) {
                Self.install(record, into: &contents)
                changed = true
            }
            return changed
        }
        if changed { registrar.withMutation(of: self, keyPath: \.recipes) {} }
    }

    private static func install(_ record: StoredRecipe, into contents: inout Contents) {
        contents.versions[record.id] = record.version
        if var recipe = record.recipe {
            recipe.id = record.id
            recipe.version = record.version
            contents.recipes[record.id] = recipe
        } else {
            contents.recipes[record.id] = nil
        }
    }
}
