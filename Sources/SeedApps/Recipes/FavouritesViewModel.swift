import Bindery
import Observation

/// The signed-in user's favourite recipes (`favourites`): their own data, the same on every device
/// they sign in on, and nobody else's. Readable by signed-in sessions only: an anonymous visitor
/// gets 401 and the browser shows the sign-in page first.
@Observable
public final class FavouritesViewModel: ViewModel {
    /// Its (no) commands.
    public let commandStates = CommandStates()

    @ObservationIgnored let book: RecipeBook
    @ObservationIgnored let favourites: FavouriteRecipes
    @ObservationIgnored let viewer: Viewer

    /// The favourites of `viewer`'s user among `book`'s recipes.
    public init(book: RecipeBook, favourites: FavouriteRecipes, viewer: Viewer) {
        self.book = book
        self.favourites = favourites
        self.viewer = viewer
    }

    /// The user's favourite recipes that still exist, by name.
    public var recipes: [Recipe] {
        (favourites.of(viewer)?.records ?? []).compactMap { book.recipe(id: $0.id) }
            .sorted { ($0.name.lowercased(), $0.id) < ($1.name.lowercased(), $1.id) }
    }

    /// One favourite as the page lists it, with the page of the recipe (on the recipes screen).
    static let row = Schema.named(
        "FavouriteRecipe",
        .object(["id": .text, "name": .text, "filmType": .enumeration(FilmType.allCases.map(\.rawValue)), "url": .text])
    )

    /// The page of the recipe `id`: the recipes screen's `{id}` route.
    static func page(of id: String) -> String { "/recipes/\(id)" }

    /// Outputs `owner` (whose favourites: the user's name) and `recipes` (`id`, `name`,
    /// `filmType`, `url`); readable by signed-in sessions.
    public static let declaration = ViewModelDeclaration<FavouritesViewModel>(
        "Favourites",
        summary: "Your favourite recipes: yours alone, on every device you sign in on.",
        outputs: [
            .string("owner") { $0.viewer.user?.name ?? "" },
            OutputDeclaration("recipes", schema: .array(row)) { model in
                .array(
                    model.recipes.map { recipe in
                        [
                            "id": .string(recipe.id), "name": .string(recipe.name), "filmType": .string(recipe.filmType.rawValue),
                            "url": .string(page(of: recipe.id)),
                        ]
                    })
            },
        ],
        persists: PersistedState(save: { _ in .null }, restore: { _, _ in })
    )
    .readable(by: .signedIn)
}
