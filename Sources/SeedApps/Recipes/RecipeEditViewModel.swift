import Bindery
import Observation

/// A recipe's editor (`recipes/<id>/edit`, seed 003's `ASHEditRecipeViewModel`).
///
/// Its inputs are two-way bound to the shared recipe (the seed's `RACChannelTo(self, name) =
/// RACChannelTo(self.model, name)`): a write is committed to the book before it is answered and
/// shows in every session; a change made elsewhere shows here. A `null` film type falls back to
/// colour negative. Plain writes change only the fields they name (last write wins per field);
/// `If-Match` with this page's version refuses a write when the recipe changed since (412).
@Observable
public final class RecipeEditViewModel: ViewModel {
    /// The recipe's id.
    public let id: String
    /// The live state of `addStep`, `removeStep` and `moveStep`.
    public let commandStates = CommandStates()

    @ObservationIgnored let book: RecipeBook
    /// The recipe version the last render showed: what a conditional write replaces.
    @ObservationIgnored private var shownVersion: Int?

    /// Creates the editor of the recipe `id` of `book`.
    public init(book: RecipeBook, id: String) {
        self.book = book
        self.id = id
    }

    /// The recipe as it is now (nil once deleted); remembers the version it read.
    public var recipe: Recipe? {
        let recipe = book.recipe(id: id)
        shownVersion = recipe?.version
        return recipe
    }

    /// The editor is gone once its recipe is deleted.
    public var isGone: Bool { !book.contains(id: id) }

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

    /// Inputs `name`, `blurb`, `filmType` (bound to the recipe); outputs `steps`, `recipeVersion`;
    /// commands `addStep`, `removeStep`, `moveStep`.
    public static let declaration = ViewModelDeclaration<RecipeEditViewModel>(
        "RecipeEdit",
        summary: "A recipe's editor (seed 003's ASHEditRecipeViewModel): fields bound two-way to the shared recipe.",
        inputs: [
            .writtenThrough(
                "name", schema: .string(maxLength: RecipeRules.maxNameLength),
                read: { .string($0.recipe?.name ?? "") },
                rule: { _, value in RecipeRules.nameProblem(value.stringValue ?? "") }
            ),
            .writtenThrough(
                "blurb", schema: .string(maxLength: RecipeRules.maxBlurbLength), read: { .string($0.recipe?.blurb ?? "") }
            ),
            .writtenThrough(
                "filmType", schema: .enumeration(FilmType.allCases.map(\.rawValue)),
                nullDefault: .string(FilmType.fallback.rawValue),
                read: { .string(($0.recipe?.filmType ?? .fallback).rawValue) }
            ),
        ],
        outputs: RecipeOutputs.all(\.recipe, inputs: true),
        commands: [
            .deferred(
                "addStep", summary: "Appends a step (`name`, `durationSeconds`, optional `temperatureCelsius`, `agitation`).",
                argument: Step.Argument.self, policy: .queue(limit: 8),
                prepare: { model, argument throws(ViewModelError) in
                    let step = try argument.step(command: "addStep")
                    return model.changeSteps { $0.append(step) }
                }
            ),
            .deferred(
                "removeStep", summary: "Removes the step at `index`.",
                argument: StepIndex.self, policy: .queue(limit: 8),
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
                argument: MoveStep.self, policy: .queue(limit: 8),
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
        persists: PersistedState(save: { _ in .null }, restore: { _, _ in }),
        writeThrough: WriteThrough { model, write throws(ViewModelError) in try await model.commit(write) }
    )

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
