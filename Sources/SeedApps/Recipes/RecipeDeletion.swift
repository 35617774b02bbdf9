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

    /// `restore`: brings the recipe back as it was; enabled while it is deleted.
    static func restoreCommand<Model: ViewModel>(
        _ book: KeyPath<Model, RecipeBook> & Sendable, _ id: KeyPath<Model, String> & Sendable
    ) -> CommandDeclaration<Model> {
        .deferred(
            "restore", summary: "Brings the deleted recipe back as it was; enabled while it is deleted.",
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
    }
}
