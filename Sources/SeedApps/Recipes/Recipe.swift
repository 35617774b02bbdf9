import Bindery

/// A development recipe (seed 003's `ASHRecipe`): a name, a blurb, the film it develops and its
/// ordered steps. Shared by every session through the ``RecipeBook``.
public struct Recipe: SharedRecord, Identifiable {
    /// A stable id, also the recipe's path segment (`recipes/<id>`).
    public var id: String
    /// The recipe's name.
    public var name: String
    /// A short description.
    public var blurb: String
    /// The film it develops.
    public var filmType: FilmType
    /// The steps, in the order they run.
    public var steps: [Step]
    /// Starts at 1 and grows by 1 with every committed change.
    public var version: Int

    /// Creates a recipe.
    public init(
        id: String, name: String, blurb: String = "", filmType: FilmType = .fallback, steps: [Step] = [], version: Int = 1
    ) {
        self.id = id
        self.name = name
        self.blurb = blurb
        self.filmType = filmType
        self.steps = steps
        self.version = version
    }
}
