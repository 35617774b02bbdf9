import SeedApps
import BinderyRuntime
import Testing

/// Seed 003's derived values: `canStartTimer` (`RACObserve(self.model, steps)` mapped to "has
/// steps") and `nextStepString` (`combineLatest` of the steps and `currentStepIndex`).
@Suite("Recipe rules (seed 003)")
struct RecipeRulesTests {
    let steps = FirstStartRecipes.c41.steps

    @Test func canStartTimerIffTheRecipeHasSteps() {
        #expect(RecipeRules.canStartTimer(steps))
        #expect(!RecipeRules.canStartTimer([]))
    }

    @Test func nextStepStringNamesTheStepAfterTheCurrentOne() {
        #expect(RecipeRules.nextStepString(steps: steps, currentStepIndex: 0) == "Blix")
        #expect(RecipeRules.nextStepString(steps: steps, currentStepIndex: 2) == "Stabiliser")
    }

    @Test func nextStepStringIsEmptyAtTheLastStepAndOutOfRange() {
        #expect(RecipeRules.nextStepString(steps: steps, currentStepIndex: 3) == "")
        #expect(RecipeRules.nextStepString(steps: steps, currentStepIndex: 7) == "")
        #expect(RecipeRules.nextStepString(steps: steps, currentStepIndex: -2) == "")
        #expect(RecipeRules.nextStepString(steps: [], currentStepIndex: 0) == "")
    }

    @Test func nullFilmTypeFallsBackToColourNegative() {
        #expect(FilmType.fallback == .colourNegative)
        #expect(Recipe(id: "x", name: "x").filmType == .colourNegative)
    }

    @Test func firstStartRecipesAreTheC41AndABlackAndWhiteProcess() {
        let c41 = FirstStartRecipes.c41
        #expect(c41.filmType == .colourNegative)
        #expect(c41.steps.map(\.name) == ["Developer", "Blix", "Wash", "Stabiliser"])
        #expect(c41.steps[0].durationSeconds == 195)
        #expect(c41.steps[0].temperatureCelsius == 37.8)
        #expect(FirstStartRecipes.d76.filmType == .blackAndWhite)
        #expect(Set(FirstStartRecipes.all.map(\.id)).count == FirstStartRecipes.all.count)
    }

    @Test func namesNeedAVisibleCharacter() {
        #expect(RecipeRules.nameProblem("") != nil)
        #expect(RecipeRules.nameProblem("  ") != nil)
        #expect(RecipeRules.nameProblem("E-6") == nil)
    }
}

/// `maxLength` counts code points as JSON Schema does, so a name of combining marks that looks
/// short is still refused when the document says it is too long.
@Suite("Recipe name length")
struct RecipeNameLengthTests {
    @Test func maxLengthCountsCodePointsNotGraphemes() {
        let schema = BinderyRuntime.Schema.string(maxLength: RecipeRules.maxNameLength)
        let zalgo = String(repeating: "o\u{0336}\u{0319}", count: 50)  // 50 graphemes, 150 code points
        #expect(zalgo.count == 50)
        #expect(schema.violation(by: .string(zalgo)) != nil)
        #expect(schema.violation(by: .string(String(repeating: "é", count: 120))) == nil)
    }
}
