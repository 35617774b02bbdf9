import BinderyFeatures
import BinderyStore
import Foundation

/// The shared recipes in Bindery's session store, so they last on SQLite, in memory and on
/// PostgreSQL with no store code of their own.
///
/// They live under a reserved pseudo-session (``session``, 32 bytes of `0xff`, no token hashes
/// to it in practice) created with `Date.distantFuture` as its times: idle purges (`last use <
/// cutoff`) never pick it and LRU eviction takes it last (only a limit of 0 sessions would). Each
/// recipe is one view-model record at `recipes/<id>` whose state is the recipe's JSON and whose
/// version is the recipe's; a deleted recipe is a write of `null` (a tombstone). Every write names
/// the version it replaces, so a second node writing the same recipe gets a conflict.
public struct StoreRecipeRepository: RecipeRepository {
    /// The pseudo-session holding the recipes.
    public static let session = SessionTokenHash(bytes: Data(repeating: 0xff, count: SessionTokenHash.byteCount))!
    /// The path prefix of recipe records.
    public static let prefix = "recipes/"

    private let store: any SessionStateStore

    private init(store: any SessionStateStore) {
        self.store = store
    }

    /// The repository over `store`, creating the pseudo-session when it is missing.
    public static func open(store: any SessionStateStore) async throws -> StoreRecipeRepository {
        if try await store.session(session) == nil {
            do {
                _ = try await store.createSession(session, at: .distantFuture)
            } catch StoreError.sessionExists {
                // Another node created it first.
            }
        }
        return StoreRecipeRepository(store: store)
    }

    /// Every recipe record, tombstones included.
    public func loadAll() async throws(RecipeStoreError) -> [StoredRecipe] {
        let records: [ViewModelRecord]
        do {
            records = try await store.viewModels(of: Self.session)
        } catch {
            throw .unavailable(reason: "\(error)")
        }
        let decoder = JSONDecoder()
        return records.compactMap { record in
            guard record.key.path.hasPrefix(Self.prefix) else { return nil }
            let id = String(record.key.path.dropFirst(Self.prefix.count))
            return StoredRecipe(id: id, version: record.version, recipe: try? decoder.decode(Recipe.self, from: record.state))
        }
    }

    /// Writes the recipe's JSON at its version.
    public func save(_ recipe: Recipe, expectedVersion: Int?) async throws(RecipeStoreError) {
        let state: Data
        do {
            state = try JSONEncoder().encode(recipe)
        } catch {
            throw .unavailable(reason: "cannot encode the recipe")
        }
        try await write(id: recipe.id, version: recipe.version, expected: expectedVersion, state: state)
    }

    /// Writes a tombstone (`null`).
    public func delete(id: String, version: Int, expectedVersion: Int) async throws(RecipeStoreError) {
        try await write(id: id, version: version, expected: expectedVersion, state: Data("null".utf8))
    }

    private func write(id: String, version: Int, expected: Int?, state: Data) async throws(RecipeStoreError) {
        let write = ViewModelWrite(
            key: ViewModelKey(session: Self.session, path: Self.prefix + id), expected: expected, version: version,
            state: state, snapshot: nil, at: Date()
        )
        do {
            try await store.commit([write])
        } catch StoreError.conflict {
            throw .conflict(id: id)
        } catch {
            throw .unavailable(reason: "\(error)")
        }
    }
}
