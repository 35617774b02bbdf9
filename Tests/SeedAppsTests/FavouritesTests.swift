import BinderyRuntime
import BinderyTesting
import SeedApps
import Testing

/// Favourite recipes (issue 37): each signed-in user's own, in every one of their sessions, and
/// nobody else's; the favourites screen reads them, for signed-in sessions only.
@MainActor
@Suite("Favourite recipes: a user's own data", .timeLimit(.minutes(1)))
struct FavouritesTests {
    static let liLei = User(id: "u-lilei", name: "Li Lei", roles: [RecipeRules.administrator])
    static let hanMeimei = User(id: "u-hanmeimei", name: "Han Meimei")

    @Test func aFavouriteIsTheUsersOnEveryDeviceAndNobodyElses() async throws {
        let book = RecipeBook.inMemory()
        let favourites = FavouriteRecipes.inMemory("favourites")
        let phone = Viewer(user: Self.liLei), laptop = Viewer(user: Self.liLei), other = Viewer(user: Self.hanMeimei)
        let list = ViewModelTester(RecipesViewModel(book: book, favourites: favourites, viewer: phone), viewer: phone)
        try list.execute("favourite", ["id": "c41", "favourite": true]) { state in
            state.commands["favourite"]?.executing = true
        }
        await list.settle { state in
            state.commands["favourite"]?.executing = false
            state.outputs["recipes"] = Self.rows(state.outputs["recipes"], favourite: ["c41"])
        }
        list.finish()
        let onTheLaptop = FavouritesViewModel(book: book, favourites: favourites, viewer: laptop)
        #expect(onTheLaptop.recipes.map(\.id) == ["c41"], "the same user's other session sees it")
        #expect(onTheLaptop.output("owner") == "Li Lei")
        let hers = FavouritesViewModel(book: book, favourites: favourites, viewer: other)
        #expect(hers.recipes.isEmpty, "another user's favourites are not hers")
        #expect(FavouritesViewModel(book: book, favourites: favourites, viewer: Viewer()).recipes.isEmpty)
    }

    @Test func anAnonymousSessionMayNotMarkAFavourite() async throws {
        let viewer = Viewer()
        let list = ViewModelTester(RecipesViewModel(book: .inMemory(), favourites: .inMemory("favourites"), viewer: viewer), viewer: viewer)
        list.refuse("favourite", ["id": "c41", "favourite": true], with: .signInRequired)
        #expect(list.state.commands["favourite"]?.enabled == false, "shown disabled")
        list.finish()
    }

    @Test func theFavouritesScreenIsForSignedInSessions() {
        let schema = FavouritesViewModel.declaration.schema
        #expect(schema.readAccess == AccessSummary(signIn: true, roles: [], conditional: false))
    }

    /// `rows` (the list's `recipes` output) with `favourite` true for `ids`.
    static func rows(_ rows: JSONValue?, favourite ids: Set<String>) -> JSONValue? {
        rows?.arrayValue.map { rows in
            .array(
                rows.map { row in
                    guard case .object(var members) = row, case .object(var outputs)? = members["outputs"] else { return row }
                    outputs["favourite"] = .bool(ids.contains(members["id"]?.stringValue ?? ""))
                    members["outputs"] = .object(outputs)
                    return .object(members)
                })
        }
    }
}
