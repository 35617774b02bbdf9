import Bindery
import Observation

/// One step in a recipe's editor (`recipes/<id>/edit/steps/<stepId>`), addressed by the step's
/// stable id: a move or another user's insertion never moves its path, so nobody's focus or
/// caret jumps to another step.
///
/// Its name and agitation note are collaborative texts of the shared recipe; its duration and
/// temperature are written through like the editor's film type.
@Observable
public final class StepEditViewModel: ViewModel {
    /// The live state of its (no) commands.
    public let commandStates = CommandStates()
    /// The recipe's id.
    public let recipeID: String
    /// The step's id.
    public let stepID: String
    @ObservationIgnored let book: RecipeBook

    /// Creates the editor of the step `stepID` of the recipe `recipeID` of `book`.
    public init(book: RecipeBook, recipeID: String, stepID: String) {
        self.book = book
        self.recipeID = recipeID
        self.stepID = stepID
    }

    /// The step and its position, while the recipe has it (as it was, once the recipe is deleted).
    var step: (index: Int, step: Step)? {
        guard let recipe = book.shownRecipe(id: recipeID), let index = recipe.stepIndex(id: stepID) else { return nil }
        return (index, recipe.steps[index])
    }

    /// Gone once the step is, or its recipe can no longer be restored.
    public var isGone: Bool { book.shownRecipe(id: recipeID)?.stepIndex(id: stepID) == nil }

    /// The collaborative text `field` (`name`, `agitation`) of the step.
    func text(_ field: String) -> CollaborativeText {
        book.collaborativeText(id: recipeID, key: "steps/\(stepID)/\(field)")
    }

    /// Commits a write of the duration or temperature to the step.
    nonisolated(nonsending) func commit(_ write: SharedWrite) async throws(ViewModelError) {
        let stepID = stepID
        do {
            try await book.update(id: recipeID) { recipe throws(SharedRecordError) in
                guard let index = recipe.stepIndex(id: stepID) else { throw .notFound(id: stepID) }
                if let name = write.string("name") { recipe.steps[index].name = name }
                if let agitation = write.string("agitation") { recipe.steps[index].agitation = agitation }
                if let seconds = write.values["durationSeconds"]?.intValue { recipe.steps[index].durationSeconds = seconds }
                if let temperature = write.values["temperatureCelsius"] { recipe.steps[index].temperatureCelsius = temperature.doubleValue }
            }
        } catch {
            throw error.viewModelError(path: servedPath)
        }
    }

    /// Inputs `name` and `agitation` (collaborative), `durationSeconds`, `temperatureCelsius`;
    /// output `index`.
    public static let declaration = ViewModelDeclaration<StepEditViewModel>(
        "StepEdit",
        summary: "One step in a recipe's editor, by its stable id: name and agitation typed together, times written through.",
        inputs: [
            .collaborative("name", maxLength: RecipeRules.maxNameLength, text: { $0.text("name") }, rule: RecipeRules.nameProblem),
            .collaborative("agitation", maxLength: RecipeRules.maxBlurbLength, text: { $0.text("agitation") }),
            .writtenThrough(
                "durationSeconds", schema: .integer(minimum: 1, maximum: RecipeRules.maxStepSeconds),
                read: { .int($0.step?.step.durationSeconds ?? 1) }
            ),
            .writtenThrough(
                "temperatureCelsius",
                schema: .nullable(.number), read: { $0.step?.step.temperatureCelsius.map(JSONValue.double) ?? .null },
                rule: { _, value in
                    guard let celsius = value.doubleValue, !RecipeRules.temperatures.contains(celsius) else { return nil }
                    return "must be between 0 and 100 °C"
                }
            ),
        ],
        outputs: [.integer("index") { $0.step?.index ?? 0 }],
        writeThrough: WriteThrough { model, write throws(ViewModelError) in try await model.commit(write) }
    )
    .writable(by: .signedIn)
}
