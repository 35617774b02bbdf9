import Bindery

/// What a recipe's pages show and offer once someone deleted the recipe while others looked at
/// it: the pages stay, showing the recipe as it was, who deleted it, and `restore`.
enum RecipeDeletion {
    /// Outputs `isDeleted` and `deletedBy` (the deleter's presence name, or null).
    static func outputs<Model: AnyObject>(
        _ book: KeyPath<Model, RecipeBook> & Sendable, _ id: KeyPath<Model, String> & Sendable
    ) -> [OutputDeclaration<Model>] {
        [
            .boolean("isDeleted") { $0[keyPath: book].deletion(of: $0[keyPath: id]) != nil },
            .optionalString("deletedBy") { $0[keyPath: book].deletion(of: $0[keyPath: id])?.by },
        ]
    }

    /// `restore`: brings the recipe back as it was; enabled while it is deleted, for who may
    /// delete it (``RecipeRules/mayDelete(_:by:)``).
    static func restoreCommand<Model: ViewModel>(
        _ book: KeyPath<Model, RecipeBook> & Sendable, _ id: KeyPath<Model, String> & Sendable
    ) -> CommandDeclaration<Model> {
        CommandDeclaration<Model>.deferred(
            "restore", summary: "Brings the deleted recipe back as it was; enabled while it is deleted, for its owner.",
            enabled: { $0[keyPath: book].deletion(of: $0[keyPath: id]) != nil },
            prepare: { model, _ in
                let book = model[keyPath: book]
                let id = model[keyPath: id]
                return {
                    try await book.restore(id: id)
                    return .none
                }
            }
        )
        .executable(
            by: .when { user, model in
                model[keyPath: book].deletion(of: model[keyPath: id]).map { RecipeRules.mayDelete($0.record, by: user) } ?? true
            })
    }
}
