import Bindery
import BinderyUpstream

/// The screens of a Bindery session, registered once: the login form, the POI list, the photo
/// gallery, the course list, the film recipes (seed 003's C-41 app) and the signed-in user's
/// favourite recipes. Their declarations give
/// everything else (routes, documents, the catalogue).
public enum FeatureScreens {
    /// Every screen, in the order a client lists them, loading from `upstream` and reporting
    /// swallowed failures (the gallery's import errors) to `log`.
    ///
    /// `recipes` is the book every session shares (one per server process), `favourites` each
    /// user's favourite recipes; recipe timers count on `clock`.
    public static func all(
        upstream: UpstreamProvider, log: @escaping @Sendable (String) -> Void = { _ in },
        recipes: RecipeBook = .inMemory(), favourites: FavouriteRecipes = .inMemory("favourites"),
        clock: any Clock<Duration> = ContinuousClock()
    ) -> [Screen] {
        [
            Screen("form", title: "Login form") { viewer in FormViewModel(viewer: viewer) },
            Screen("list", title: "Points of interest") { ListViewModel(upstream: upstream) },
            Screen("gallery", title: "Photo gallery") { GalleryViewModel(upstream: upstream, log: log) },
            Screen("courses", title: "Courses") { CoursesViewModel(upstream: upstream) },
            Screen("recipes", title: "Film recipes") { viewer in
                RecipesViewModel(book: recipes, favourites: favourites, viewer: viewer, clock: clock)
            },
            Screen("favourites", title: "My favourites") { viewer in
                FavouritesViewModel(book: recipes, favourites: favourites, viewer: viewer)
            },
        ]
    }
}
