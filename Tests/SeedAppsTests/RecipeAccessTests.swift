import BinderyRuntime
import SeedApps
import Testing

/// Who may do what to the recipes (seed 003, issue 37), in process, each request run as the
/// server runs it for a session (``Viewer/current``): anonymous sessions read only, anyone signed
/// in adds and edits, only a recipe's owner deletes or restores it, and only an administrator the
/// first-start recipes, which are nobody's. Each row says whether the viewer may delete it.
@MainActor
@Suite("Recipe access rules (seed 003): who adds, edits, deletes and restores", .timeLimit(.minutes(1)))
struct RecipeAccessTests {
    static let liLei = User(id: "u-lilei", name: "Li Lei", roles: [RecipeRules.administrator])
    static let hanMeimei = User(id: "u-hanmeimei", name: "Han Meimei")

    /// Runs `body` as a request of a session signed in as `user` (nil: anonymous) would run.
    @discardableResult
    func signedIn<T>(_ user: User?, _ body: () async throws -> T) async rethrows -> T {
        try await Viewer.$current.withValue(Viewer(user: user)) { try await body() }
    }

    /// The list's rows as `user` sees them: each recipe's outputs by id.
    func rows(_ list: RecipesViewModel, as user: User?) -> [String: [String: JSONValue]] {
        Viewer.$current.withValue(Viewer(user: user)) {
            let rows = list.output("recipes")?.arrayValue?.compactMap(\.objectValue) ?? []
            return Dictionary(uniqueKeysWithValues: rows.map { ($0["id"]?.stringValue ?? "", $0["outputs"]?.objectValue ?? [:]) })
        }
    }

    /// Whether `user` sees the list's command `name` enabled.
    func isEnabled(_ list: RecipesViewModel, _ name: String, as user: User?) -> JSONValue? {
        Viewer.$current.withValue(Viewer(user: user)) {
            list.snapshotMembers["commands"]?.objectValue?[name]?.objectValue?["enabled"]
        }
    }

    @Test func anAnonymousSessionReadsButMayNotAddEditDeleteOrRestore() async throws {
        let book = RecipeBook.inMemory()
        let list = RecipesViewModel(book: book)
        let edit = RecipeEditViewModel(book: book, id: "c41")
        await signedIn(nil) {
            #expect(list.output("recipes")?.arrayValue?.count == 2, "reading needs no sign-in")
            await #expect(throws: ViewModelError.signInRequired) { try await list.execute("add", ["name": "E-6"]) }
            await #expect(throws: ViewModelError.signInRequired) { try await list.execute("delete", ["id": "c41"]) }
            await #expect(throws: ViewModelError.signInRequired) { try await edit.write(["name": "Mine"]) }
            await #expect(throws: ViewModelError.signInRequired) {
                try await edit.execute("addStep", ["name": "Rinse", "durationSeconds": 30])
            }
            // The shared book refuses too, whoever calls it.
            await #expect(throws: SharedRecordError.signInRequired) { try await book.add(name: "E-6") }
            await #expect(throws: SharedRecordError.signInRequired) { try await book.delete(id: "d76") }
        }
        #expect(book.recipes == FirstStartRecipes.all, "nothing changed")
        #expect(isEnabled(list, "add", as: nil) == false, "a command the session may not run shows disabled")
        #expect(isEnabled(list, "delete", as: nil) == false)
        #expect(isEnabled(list, "add", as: Self.hanMeimei) == true)
        #expect(isEnabled(list, "select", as: nil) == true)
    }

    @Test func aUsersRecipeIsTheirsAndOnlyTheyDeleteAndRestoreIt() async throws {
        let book = RecipeBook.inMemory()
        let list = RecipesViewModel(book: book)
        let added = try await signedIn(Self.hanMeimei) { try await list.execute("add", ["name": "E-6 slide"]) }
        #expect(try added.get().navigate != nil, "answers the new recipe's editor")
        let recipe = try #require(book.recipes.first { $0.name == "E-6 slide" })
        #expect(recipe.owner == "u-hanmeimei")
        #expect(recipe.ownerName == "Han Meimei")

        // Anyone signed in edits it; an administrator may not delete it: it is not theirs.
        try await signedIn(Self.liLei) {
            try await RecipeEditViewModel(book: book, id: recipe.id).write(["blurb": "Six baths"])
            await #expect(throws: ViewModelError.forbidden(reason: "only its owner may delete \(recipe.id)")) {
                try await list.execute("delete", ["id": .string(recipe.id)])
            }
            await #expect(throws: SharedRecordError.forbidden(id: recipe.id)) { try await book.delete(id: recipe.id) }
        }
        #expect(book.recipe(id: recipe.id)?.blurb == "Six baths")
        #expect(book.recipe(id: recipe.id)?.version == 2, "the refused deletes changed nothing")

        #expect(try await signedIn(Self.hanMeimei) { try await list.execute("delete", ["id": .string(recipe.id)]) } == .success(CommandResult.none))
        #expect(!book.contains(id: recipe.id))
        await signedIn(Self.liLei) {
            await #expect(throws: ViewModelError.forbidden(reason: "only its owner may restore \(recipe.id)")) {
                try await list.execute("restore", ["id": .string(recipe.id)])
            }
        }
        #expect(!book.contains(id: recipe.id))
        #expect(try await signedIn(Self.hanMeimei) { try await list.execute("restore", ["id": .string(recipe.id)]) } == .success(CommandResult.none))
        #expect(book.recipe(id: recipe.id)?.owner == "u-hanmeimei", "restored as it was, still hers")
    }

    @Test func onlyAnAdministratorDeletesAndRestoresTheRecipesNobodyOwns() async throws {
        let book = RecipeBook.inMemory()
        let list = RecipesViewModel(book: book)
        #expect(FirstStartRecipes.all.allSatisfy { $0.owner == nil })
        await signedIn(Self.hanMeimei) {
            await #expect(throws: ViewModelError.forbidden(reason: "only an administrator may delete c41")) {
                try await list.execute("delete", ["id": "c41"])
            }
            await #expect(throws: SharedRecordError.forbidden(id: "c41")) { try await book.delete(id: "c41") }
        }
        #expect(book.recipe(id: "c41") == FirstStartRecipes.c41)

        #expect(try await signedIn(Self.liLei) { try await list.execute("delete", ["id": "c41"]) } == .success(CommandResult.none))
        #expect(!book.contains(id: "c41"))
        let edit = RecipeEditViewModel(book: book, id: "c41")
        await signedIn(Self.hanMeimei) {
            await #expect(throws: ViewModelError.forbidden(reason: "you may not run 'restore'")) { try await edit.execute("restore") }
            await #expect(throws: ViewModelError.forbidden(reason: "only an administrator may restore c41")) {
                try await list.execute("restore", ["id": "c41"])
            }
        }
        #expect(!book.contains(id: "c41"))
        #expect(try await signedIn(Self.liLei) { try await edit.execute("restore") } == .success(CommandResult.none))
        #expect(book.recipe(id: "c41")?.name == FirstStartRecipes.c41.name)
    }

    @Test func eachRowSaysWhoMadeItAndWhetherTheViewerMayDeleteIt() async throws {
        let book = RecipeBook.inMemory()
        let list = RecipesViewModel(book: book)
        _ = try await signedIn(Self.hanMeimei) { try await list.execute("add", ["name": "E-6 slide"]) }
        let recipe = try #require(book.recipes.first { $0.name == "E-6 slide" })

        let anonymous = rows(list, as: nil)
        #expect(
            anonymous["c41"] == [
                "name": "C-41 colour negative", "filmType": "colourNegative", "stepCount": 4, "ownerName": nil, "deletable": false,
                "favourite": false,
            ])
        #expect(anonymous[recipe.id]?["ownerName"] == "Han Meimei")
        #expect(anonymous.values.allSatisfy { $0["deletable"] == false }, "an anonymous session deletes nothing")

        let hers = rows(list, as: Self.hanMeimei)
        #expect(hers.mapValues { $0["deletable"] } == ["c41": false, "d76": false, recipe.id: true])
        let his = rows(list, as: Self.liLei)
        #expect(his.mapValues { $0["deletable"] } == ["c41": true, "d76": true, recipe.id: false])
        #expect(his[recipe.id]?["ownerName"] == "Han Meimei", "every viewer sees who made it")
    }
}
