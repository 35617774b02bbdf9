import Bindery
import Observation

/// One row of the recipe list (seed 003's master table cell): name, film type and step count of
/// one recipe as the list rendered it. Read-only.
@Observable
public final class RecipeCellViewModel: ViewModel {
    /// The recipe the row shows.
    public let recipe: Recipe

    /// Creates the row of `recipe`.
    public init(recipe: Recipe) {
        self.recipe = recipe
    }

    /// Outputs `name`, `filmType`, `stepCount`.
    public static let declaration = ViewModelDeclaration<RecipeCellViewModel>(
        "RecipeCell",
        summary: "One recipe of the recipe list: its name, film type and number of steps.",
        outputs: [
            .string("name") { $0.recipe.name },
            .enumeration("filmType", FilmType.allCases.map(\.rawValue)) { $0.recipe.filmType.rawValue },
            .integer("stepCount") { $0.recipe.steps.count },
        ]
    )
    /// Rows have no commands.
    public let commandStates = CommandStates()
}
