import Bindery
import Observation

/// The recipe list (seed 003's `ASHMasterViewModel`): every recipe of the shared book, live.
///
/// `add` makes a recipe and answers its edit page, `select` its detail page, `delete` removes one
/// for everyone, `favourite` marks one as the user's own favourite (theirs alone, on every device).
/// Anyone reads the list; adding and favourites need a signed-in user, deleting and restoring the
/// recipe's owner (an administrator, for the recipes nobody owns). The list makes each recipe's
/// detail view model (seed: the next screen's view model comes from this one) and keeps it while
/// the recipe exists.
@Observable
public final class RecipesViewModel: ViewModel {
    /// The live state of `add`, `delete`, `restore`, `select` and `favourite`.
    public let commandStates = CommandStates()

    @ObservationIgnored let book: RecipeBook
    @ObservationIgnored let favourites: FavouriteRecipes
    @ObservationIgnored let viewer: Viewer
    @ObservationIgnored let clock: any Clock<Duration>
    @ObservationIgnored private var details: [String: RecipeDetailViewModel] = [:]

    /// Creates the list of `book`'s recipes for `viewer`, with their `favourites`; timers count on
    /// `clock`.
    public init(
        book: RecipeBook, favourites: FavouriteRecipes = .inMemory("favourites"), viewer: Viewer = Viewer(),
        clock: any Clock<Duration> = ContinuousClock()
    ) {
        self.book = book
        self.favourites = favourites
        self.viewer = viewer
        self.clock = clock
    }

    /// One row per recipe, by name, each saying whether it is one of the viewer's favourites.
    public var cells: [RecipeCellViewModel] {
        book.recipes.map { RecipeCellViewModel(recipe: $0, favourite: favourites.isFavourite($0.id, of: viewer)) }
    }

    /// The detail view model of the recipe `id`, made on first use; nil once the recipe is gone
    /// (deleted and no longer restorable).
    public func detail(id: String) -> RecipeDetailViewModel? {
        guard !book.isGone(id: id) else {
            details[id] = nil
            return nil
        }
        if let detail = details[id] { return detail }
        let detail = RecipeDetailViewModel(book: book, id: id, clock: clock)
        details[id] = detail
        return detail
    }

    /// Output `recipes`; commands `add`, `delete`, `restore`, `favourite`, `select`; child route `{id}` (the detail page,
    /// with its own `edit` and `timer` below).
    public static let declaration = ViewModelDeclaration<RecipesViewModel>(
        "Recipes",
        summary: "The C-41 recipe list (seed 003's ASHMasterViewModel), shared by every session and live.",
        outputs: [
            .children("recipes", of: RecipeCellViewModel.declaration.schema, route: "recipe") { model in
                model.cells.map { (id: $0.recipe.id, viewModel: $0) }
            }
        ],
        commands: [
            .deferred(
                "add", summary: "Adds a recipe with no steps, yours, and answers its edit page once it is stored.",
                argument: AddRecipe.self, navigates: true, policy: .concurrent,
                prepare: { model, argument throws(ViewModelError) in
                    let name = argument.name
                    if let problem = RecipeRules.nameProblem(name) { throw .invalidArgument(command: "add", reason: "name \(problem)") }
                    let book = model.book
                    let owner = Viewer.current?.user
                    let editor = { (id: String) in model.page(to: "recipe", id, then: "recipeEdit") }
                    return {
                        let recipe = try await book.add(name: name, owner: owner)
                        let page = editor(recipe.id)
                        return CommandResult(navigate: page)
                    }
                }
            ).executable(by: .signedIn),
            .deferred(
                "delete",
                summary:
                    "Deletes a recipe for everyone (its owner; an administrator, one nobody owns); its pages say who deleted it and can restore it.",
                argument: RecipeID.self, policy: .concurrent,
                prepare: { model, argument throws(ViewModelError) in
                    let id = try model.existingID(argument, command: "delete")
                    if let recipe = model.book.recipe(id: id) {
                        try RecipeRules.deleters.check(recipe, reason: RecipeRules.whoMayDelete(recipe, "delete"))
                    }
                    let book = model.book
                    let by = Collaborator.current?.name
                    return {
                        try await book.delete(id: id, by: by)
                        return .none
                    }
                }
            ).executable(by: .signedIn),
            .deferred(
                "restore", summary: "Brings back a deleted recipe as it was (an undo of `delete`; who may delete it may).",
                argument: RecipeID.self, policy: .concurrent,
                prepare: { model, argument throws(ViewModelError) in
                    let book = model.book
                    guard !book.contains(id: argument.id), let deletion = book.deletion(of: argument.id) else {
                        throw .invalidArgument(command: "restore", reason: "no deleted recipe has id \"\(argument.id)\"")
                    }
                    try RecipeRules.deleters.check(deletion.record, reason: RecipeRules.whoMayDelete(deletion.record, "restore"))
                    return {
                        try await book.restore(id: argument.id)
                        return .none
                    }
                }
            ).executable(by: .signedIn),
            .deferred(
                "favourite", summary: "Marks a recipe as one of your favourites (`favourite: true`) or not; yours alone.",
                argument: Favourite.self, policy: .concurrent,
                prepare: { model, argument throws(ViewModelError) in
                    let id = try model.existingID(RecipeID(id: argument.id), command: "favourite")
                    let (favourites, viewer, favourite) = (model.favourites, model.viewer, argument.favourite)
                    return {
                        try await favourites.mark(id, favourite: favourite, for: viewer)
                        return .none
                    }
                }
            ).executable(by: .signedIn),
            .immediate(
                "select", summary: "Opens a recipe: answers its detail page.",
                argument: RecipeID.self, navigates: true, policy: .concurrent,
                run: { model, argument throws(ViewModelError) in
                    CommandResult(navigate: model.page(to: "recipe", try model.existingID(argument, command: "select")))
                }
            ),
        ],
        children: [
            ChildRoute(
                "recipe", title: "Recipe", titleMember: "name", segment: "", parameter: "id",
                parameterSchema: .text, child: RecipeDetailViewModel.declaration.schema,
                resolve: { model, id in model.detail(id: id) }
            )
        ],
        persists: PersistedState(save: { _ in .null }, restore: { _, _ in })
    )

    /// The id a command argument names, if a recipe has it.
    private func existingID(_ argument: RecipeID, command: String) throws(ViewModelError) -> String {
        guard book.contains(id: argument.id) else {
            throw .invalidArgument(command: command, reason: "no recipe has id \"\(argument.id)\"")
        }
        return argument.id
    }

    /// `add`'s argument: the new recipe's name.
    struct AddRecipe: CommandArgument {
        let name: String
        static let schema = Schema.named("AddRecipeArgument", .object(["name": .string(maxLength: RecipeRules.maxNameLength)]))
    }

    /// `delete`'s, `restore`'s and `select`'s argument: a recipe's id.
    struct RecipeID: CommandArgument {
        let id: String
        static let schema = Schema.named("RecipeIDArgument", .object(["id": .text]))
    }

    /// `favourite`'s argument: a recipe's id and whether it is a favourite.
    struct Favourite: CommandArgument {
        let id: String
        let favourite: Bool
        static let schema = Schema.named("FavouriteArgument", .object(["id": .text, "favourite": .boolean]))
    }
}
