import Bindery
import Observation

/// A recipe's editor (`recipes/<id>/edit`, seed 003's `ASHEditRecipeViewModel`).
///
/// Its inputs are two-way bound to the shared recipe (the seed's `RACChannelTo(self, name) =
/// RACChannelTo(self.model, name)`): a write is committed to the book before it is answered and
/// shows in every session; a change made elsewhere shows here. The name and the blurb are
/// collaborative texts: users typing into them at once each keep every keystroke. A `null` film
/// type falls back to colour negative. Plain writes change only the fields they name;
/// `If-Match` with an older version of this page is merged when the fields it writes did not
/// change since, else refused (412). Each step has its own editor (`steps/<stepId>`), listed in
/// `steps`. Once someone deletes the recipe, the editor shows it as it was, who deleted it,
/// and `restore`.
@Observable
public final class RecipeEditViewModel: ViewModel {
    /// The recipe's id.
    public let id: String
    /// The live state of `addStep`, `removeStep` and `moveStep`.
    public let commandStates = CommandStates()

    @ObservationIgnored let book: RecipeBook
    /// The recipe version the last render showed: what a conditional write replaces.
    @ObservationIgnored private var shownVersion: Int?
    /// The editors of the steps, by step id, made on first use.
    @ObservationIgnored private var stepEditors: [String: StepEditViewModel] = [:]

    /// Creates the editor of the recipe `id` of `book`.
    public init(book: RecipeBook, id: String) {
        self.book = book
        self.id = id
    }

    /// The recipe as it is now (as it was once deleted); remembers the version it read.
    public var recipe: Recipe? {
        let recipe = book.shownRecipe(id: id)
        shownVersion = recipe?.version
        return recipe
    }

    /// Whether someone deleted the recipe (the editor shows it as it was, steps cannot change).
    var isDeleted: Bool { book.deletion(of: id) != nil }

    /// The editor is gone once its recipe is deleted and can no longer be restored.
    public var isGone: Bool { book.isGone(id: id) }

    /// The editors of the recipe's steps, in order; each is made once and kept while its step is.
    var steps: [(id: String, viewModel: any ViewModel)] {
        let steps = recipe?.steps ?? []
        let current = Set(steps.map(\.id))
        stepEditors = stepEditors.filter { current.contains($0.key) }
        return steps.map { step in (step.id, stepEditor(step.id) ?? StepEditViewModel(book: book, recipeID: id, stepID: step.id)) }
    }

    /// The editor of the step `stepID`, while the recipe has it.
    public func stepEditor(_ stepID: String) -> StepEditViewModel? {
        if let editor = stepEditors[stepID] { return editor }
        guard book.shownRecipe(id: id)?.stepIndex(id: stepID) != nil else { return nil }
        let editor = StepEditViewModel(book: book, recipeID: id, stepID: stepID)
        stepEditors[stepID] = editor
        return editor
    }

    /// Commits a checked write of `name`, `blurb` and `filmType` to the recipe before the graph
    /// shows it; a conditional write (`If-Match`) only while the recipe is at the version shown.
    nonisolated(nonsending) func commit(_ write: SharedWrite) async throws(ViewModelError) {
        let expected = write.isConditional ? (shownVersion ?? 0) : nil
        do {
            try await book.update(id: id, expectedVersion: expected) { recipe in
                if let name = write.string("name") { recipe.name = name }
                if let blurb = write.string("blurb") { recipe.blurb = blurb }
                if let filmType = write.value("filmType", as: FilmType.self) { recipe.filmType = filmType }
            }
        } catch {
            throw error.viewModelError(path: servedPath)
        }
    }

    /// Commits `change` to the recipe's steps; for the step commands.
    private func changeSteps(
        _ change: @escaping @Sendable (inout [Step]) throws(SharedRecordError) -> Void
    ) -> Command.DeferredWork {
        let book = book
        let id = id
        return {
            try await book.update(id: id) { recipe throws(SharedRecordError) in try change(&recipe.steps) }
            return .none
        }
    }

    /// A step index from a command argument, checked against the current steps.
    private func index(_ index: Int, _ field: String, command: String) throws(ViewModelError) -> Int {
        let count = (book.recipe(id: id)?.steps.count ?? 0)
        guard index >= 0, index < count else {
            throw .invalidArgument(command: command, reason: "\(field) must be a step index from 0 to \(count - 1)")
        }
        return index
    }

    /// Inputs `name`, `blurb` (collaborative), `filmType` (bound to the recipe); outputs `steps`
    /// (the step editors), `recipeVersion`, `isDeleted`, `deletedBy`; commands `addStep`,
    /// `removeStep`, `moveStep`, `restore`; child route `steps/{stepId}`.
    public static let declaration = ViewModelDeclaration<RecipeEditViewModel>(
        "RecipeEdit",
        summary: "A recipe's editor (seed 003's ASHEditRecipeViewModel): fields bound two-way to the shared recipe.",
        inputs: [
            .collaborative(
                "name", maxLength: RecipeRules.maxNameLength, text: { $0.book.collaborativeText(id: $0.id, key: "name") },
                rule: RecipeRules.nameProblem
            ),
            .collaborative(
                "blurb", maxLength: RecipeRules.maxBlurbLength, text: { $0.book.collaborativeText(id: $0.id, key: "blurb") }
            ),
            .writtenThrough(
                "filmType", schema: .enumeration(FilmType.allCases.map(\.rawValue)),
                nullDefault: .string(FilmType.fallback.rawValue),
                read: { .string(($0.recipe?.filmType ?? .fallback).rawValue) }
            ),
        ],
        outputs: [
            .children("steps", of: StepEditViewModel.declaration.schema, route: "step") { $0.steps },
            .integer("recipeVersion") { $0.recipe?.version ?? 0 },
        ] + RecipeDeletion.outputs(\.book, \.id),
        commands: [
            RecipeDeletion.restoreCommand(\.book, \.id),
            .deferred(
                "addStep", summary: "Appends a step (`name`, `durationSeconds`, optional `temperatureCelsius`, `agitation`).",
                argument: Step.Argument.self, policy: .queue(limit: 8), enabled: { !$0.isDeleted },
                prepare: { model, argument throws(ViewModelError) in
                    let step = try argument.step(command: "addStep")
                    return model.changeSteps { $0.append(step) }
                }
            ),
            .deferred(
                "removeStep", summary: "Removes the step at `index`.",
                argument: StepIndex.self, policy: .queue(limit: 8), enabled: { !$0.isDeleted },
                prepare: { model, argument throws(ViewModelError) in
                    let index = try model.index(argument.index, "index", command: "removeStep")
                    let id = model.id
                    return model.changeSteps { steps throws(SharedRecordError) in
                        guard steps.indices.contains(index) else { throw .conflict(id: id) }
                        steps.remove(at: index)
                    }
                }
            ),
            .deferred(
                "moveStep", summary: "Moves the step at `from` so that it ends up at index `to`.",
                argument: MoveStep.self, policy: .queue(limit: 8), enabled: { !$0.isDeleted },
                prepare: { model, argument throws(ViewModelError) in
                    let from = try model.index(argument.from, "from", command: "moveStep")
                    let to = try model.index(argument.to, "to", command: "moveStep")
                    let id = model.id
                    return model.changeSteps { steps throws(SharedRecordError) in
                        guard steps.indices.contains(from), steps.indices.contains(to) else { throw .conflict(id: id) }
                        steps.insert(steps.remove(at: from), at: to)
                    }
                }
            ),
        ],
        children: [
            ChildRoute(
                "step", title: "Step", titleMember: "name", segment: "steps", parameter: "stepId", parameterSchema: .text,
                child: StepEditViewModel.declaration.schema, resolve: { model, stepID in model.stepEditor(stepID) }
            )
        ],
        persists: PersistedState(save: { _ in .null }, restore: { _, _ in }),
        writeThrough: WriteThrough { model, write throws(ViewModelError) in try await model.commit(write) }
    )
    .writable(by: .signedIn)
    .latencyBudget(.writeToPush(.milliseconds(25)))

    /// `removeStep`'s argument: the step's index.
    struct StepIndex: CommandArgument {
        let index: Int
        static let schema = Schema.named("StepIndexArgument", .object(["index": .int]))
    }

    /// `moveStep`'s argument: where the step is and where it goes.
    struct MoveStep: CommandArgument {
        let from: Int
        let to: Int
        static let schema = Schema.named("MoveStepArgument", .object(["from": .int, "to": .int]))
    }
}
