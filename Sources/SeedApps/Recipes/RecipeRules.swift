import Bindery

/// The rules of the recipe screens (seed 003), kept apart from the wiring.
public enum RecipeRules {
    /// The longest name a recipe or step may have.
    public static let maxNameLength = 120
    /// The longest blurb or agitation note.
    public static let maxBlurbLength = 2000
    /// The longest step: one day.
    public static let maxStepSeconds = 86_400
    /// The temperatures a step may name, in °C.
    public static let temperatures: ClosedRange<Double> = 0...100

    /// `canStartTimer`: the recipe has steps (the seed maps `RACObserve(self.model, steps)`).
    public static func canStartTimer(_ steps: [Step]) -> Bool {
        !steps.isEmpty
    }

    /// `nextStepString`: the name of the step after `index`, or "" at the last step (the seed's
    /// `combineLatest` of the steps and `currentStepIndex`).
    public static func nextStepString(steps: [Step], currentStepIndex index: Int) -> String {
        let next = index + 1
        return next >= 0 && next < steps.count ? steps[next].name : ""
    }

    /// The reason a name is refused, or nil: it must have a visible character.
    public static func nameProblem(_ name: String) -> String? {
        name.allSatisfy(\.isWhitespace) ? "must not be empty" : nil
    }

    /// The role that may delete (and restore) the recipes nobody owns (the first start's).
    public static let administrator = "admin"

    /// Whether `user` may delete `recipe` (or restore it once deleted): its owner may; a recipe
    /// nobody owns, an administrator. Anyone signed in may edit any recipe.
    public static func mayDelete(_ recipe: Recipe, by user: User) -> Bool {
        recipe.owner.map { $0 == user.id } ?? user.has(role: administrator)
    }

    /// Why someone else may not `verb` (delete, restore) `recipe`: "only its owner may delete r1",
    /// "only an administrator may delete c41" (nobody's).
    public static func whoMayDelete(_ recipe: Recipe, _ verb: String) -> String {
        "only \(recipe.owner == nil ? "an administrator" : "its owner") may \(verb) \(recipe.id)"
    }

    /// Who may delete a recipe or restore a deleted one (``mayDelete(_:by:)``).
    public static let deleters = Access<Recipe>.when { user, recipe in mayDelete(recipe, by: user) }

}

extension Step {
    /// The step as outputs show it, with its id and its position (`index`, what the step
    /// commands take).
    func json(index: Int) -> JSONValue {
        [
            "id": .string(id), "index": .int(index), "name": .string(name), "durationSeconds": .int(durationSeconds),
            "temperatureCelsius": temperatureCelsius.map(JSONValue.double) ?? .null, "agitation": .string(agitation),
        ]
    }

    /// The shape of ``json``.
    static let schema = Schema.named(
        "RecipeStep",
        .object([
            "id": .text, "index": .int, "name": .text, "durationSeconds": .int, "temperatureCelsius": .nullable(.number),
            "agitation": .text,
        ])
    )

    /// The argument of `addStep`: `name` and `durationSeconds` required, the rest optional.
    struct Argument: CommandArgument {
        let name: String
        let durationSeconds: Int
        let temperatureCelsius: Double?
        let agitation: String?

        static let schema = Schema.named(
            "AddStepArgument",
            .object(
                [
                    "name": .string(maxLength: RecipeRules.maxNameLength),
                    "durationSeconds": .integer(minimum: 1, maximum: RecipeRules.maxStepSeconds),
                    "temperatureCelsius": .nullable(.number),
                    "agitation": .string(maxLength: RecipeRules.maxBlurbLength),
                ],
                required: ["durationSeconds", "name"]
            )
        )

        /// The step it describes; throws naming the field a rule refuses.
        func step(command: String) throws(ViewModelError) -> Step {
            if let problem = RecipeRules.nameProblem(name) {
                throw .invalidArgument(command: command, reason: "name \(problem)")
            }
            if let temperatureCelsius, !RecipeRules.temperatures.contains(temperatureCelsius) {
                throw .invalidArgument(command: command, reason: "temperatureCelsius must be between 0 and 100 °C")
            }
            return Step(
                id: Step.randomID(), name: name, durationSeconds: durationSeconds, temperatureCelsius: temperatureCelsius, agitation: agitation ?? ""
            )
        }
    }
}
