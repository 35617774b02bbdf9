import Bindery
import Observation

/// One row of the recipe list (seed 003's master table cell): name, film type, step count and
/// owner of one recipe as the list rendered it, and whether the viewer may delete it. Read-only.
@Observable
public final class RecipeCellViewModel: ViewModel {
    /// The recipe the row shows.
    public let recipe: Recipe
    /// Whether it is one of the viewer's favourites.
    public let favourite: Bool

    /// Creates the row of `recipe`.
    public init(recipe: Recipe, favourite: Bool = false) {
        self.recipe = recipe
        self.favourite = favourite
    }

    /// Outputs `name`, `filmType`, `stepCount`, `ownerName`, `deletable` (whether the viewer may
    /// delete it) and `favourite` (whether it is one of the viewer's).
    public static let declaration = ViewModelDeclaration<RecipeCellViewModel>(
        "RecipeCell",
        summary: "One recipe of the recipe list: its name, film type, steps, who made it, whether you may delete it, whether it is your favourite.",
        outputs: [
            .string("name") { $0.recipe.name },
            .enumeration("filmType", FilmType.allCases.map(\.rawValue)) { $0.recipe.filmType.rawValue },
            .integer("stepCount") { $0.recipe.steps.count },
            .optionalString("ownerName") { $0.recipe.ownerName },
            .boolean("deletable") { RecipeRules.deleters.allows($0.recipe) },
            .boolean("favourite") { $0.favourite },
        ]
    )
    /// Rows have no commands.
    public let commandStates = CommandStates()
}
