import Bindery

/// The outputs of a recipe's page: the recipe's fields as they are now.
enum RecipeOutputs {
    /// `name`, `blurb`, `filmType`, `steps`, `recipeVersion` of the recipe `recipe` reads (empty
    /// values when there is none).
    static func all<Model: AnyObject>(_ recipe: KeyPath<Model, Recipe?> & Sendable) -> [OutputDeclaration<Model>] {
        [
            .string("name") { $0[keyPath: recipe]?.name ?? "" },
            .string("blurb") { $0[keyPath: recipe]?.blurb ?? "" },
            .enumeration("filmType", FilmType.allCases.map(\.rawValue)) {
                ($0[keyPath: recipe]?.filmType ?? .fallback).rawValue
            },
            OutputDeclaration("steps", schema: .array(Step.schema)) {
                .array(($0[keyPath: recipe]?.steps ?? []).enumerated().map { $1.json(index: $0) })
            },
            .integer("recipeVersion") { $0[keyPath: recipe]?.version ?? 0 },
        ]
    }
}
