import Bindery

/// A recipe a user marked as a favourite: theirs alone, kept with their data (not with a session),
/// the same on every device they sign in on.
public struct FavouriteRecipe: SharedRecord {
    /// The recipe's id.
    public var id: String
    /// Starts at 1 and grows by 1 with every committed change.
    public var version: Int

    /// The favourite mark of the recipe `id`.
    public init(id: String, version: Int = 1) {
        self.id = id
        self.version = version
    }
}

/// Every user's favourite recipes (``UserRecords``): each signed-in user has their own.
public typealias FavouriteRecipes = UserRecords<FavouriteRecipe>

extension UserRecords where Record == FavouriteRecipe {
    /// The favourites as a server keeps them, named `favourites`.
    public static func favourites() -> FavouriteRecipes {
        FavouriteRecipes("favourites")
    }

    /// Whether `viewer`'s user marked the recipe `id` (false while anonymous). Observed.
    public func isFavourite(_ id: String, of viewer: Viewer) -> Bool {
        of(viewer)?.record(id: id) != nil
    }

    /// Marks the recipe `id` as a favourite of `viewer`'s user, or unmarks it; nothing when it
    /// already is as asked.
    public func mark(_ id: String, favourite: Bool, for viewer: Viewer) async throws(SharedRecordError) {
        guard let mine = of(viewer) else { throw .signInRequired }
        switch (favourite, mine.contains(id: id)) {
        case (true, false): _ = try await mine.add { _ in FavouriteRecipe(id: id) }
        case (false, true): try await mine.delete(id: id)
        default: return
        }
    }
}
