import Bindery
import Observation

/// A recipe's page (`recipes/<id>`, seed 003's `ASHDetailViewModel`): the recipe as it is now, in
/// every session, and `startTimer` while it has steps. Once someone deletes the recipe the page
/// stays, showing it as it was, who deleted it, and `restore`.
///
/// It makes the recipe's editor (`edit`) and timer (`timer`) view models and keeps them.
@Observable
public final class RecipeDetailViewModel: ViewModel {
    /// The recipe's id.
    public let id: String
    /// The live state of `startTimer`.
    public let commandStates = CommandStates()

    @ObservationIgnored let book: RecipeBook
    @ObservationIgnored private let clock: any Clock<Duration>
    @ObservationIgnored private var editor: RecipeEditViewModel?
    @ObservationIgnored private var timer: RecipeTimerViewModel?

    /// Creates the page of the recipe `id` of `book`; its timer counts on `clock`.
    public init(book: RecipeBook, id: String, clock: any Clock<Duration>) {
        self.book = book
        self.id = id
        self.clock = clock
    }

    /// The recipe as it is now; once deleted, as it was (while it can be restored).
    public var recipe: Recipe? { book.shownRecipe(id: id) }
    /// The recipe's steps (empty once deleted).
    public var steps: [Step] { recipe?.steps ?? [] }
    /// Whether the timer can start: the recipe exists and has steps.
    public var canStartTimer: Bool { book.contains(id: id) && RecipeRules.canStartTimer(steps) }
    /// The page is gone once its recipe is deleted and can no longer be restored.
    public var isGone: Bool { book.isGone(id: id) }

    /// The recipe's editor, made on first use.
    public var editViewModel: RecipeEditViewModel {
        if let editor { return editor }
        let made = RecipeEditViewModel(book: book, id: id)
        editor = made
        return made
    }

    /// The recipe's timer, made on first use.
    public var timerViewModel: RecipeTimerViewModel {
        if let timer { return timer }
        let made = RecipeTimerViewModel(book: book, id: id, clock: clock)
        timer = made
        return made
    }

    /// Outputs `name`, `blurb`, `filmType`, `steps`, `recipeVersion`, `isDeleted`, `deletedBy`,
    /// `canStartTimer`; commands `restore`, `startTimer`; child pages `edit` and `timer`.
    public static let declaration = ViewModelDeclaration<RecipeDetailViewModel>(
        "RecipeDetail",
        summary: "One recipe (seed 003's ASHDetailViewModel): its steps, live in every session, and its timer.",
        outputs: RecipeOutputs.all(\.recipe) + RecipeDeletion.outputs(\.book, \.id) + [
            .boolean("canStartTimer") { $0.canStartTimer }
        ],
        commands: [
            RecipeDeletion.restoreCommand(\.book, \.id),
            .immediate(
                "startTimer", summary: "Opens the recipe's timer; enabled while the recipe has steps.",
                navigates: true, enabled: { $0.canStartTimer },
                run: { model, _ in CommandResult(navigate: model.page(to: "recipeTimer")) }
            ),
        ],
        children: [
            .page(
                "recipeEdit", title: "Edit recipe", titleMember: "name", segment: "edit",
                child: RecipeEditViewModel.declaration.schema, resolve: { $0.editViewModel }
            ),
            .page(
                "recipeTimer", title: "Timer", titleMember: "currentStepName", segment: "timer",
                child: RecipeTimerViewModel.declaration.schema, resolve: { $0.timerViewModel }
            ),
        ],
        persists: PersistedState(save: { _ in .null }, restore: { _, _ in })
    )
}
