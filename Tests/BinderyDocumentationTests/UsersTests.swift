import Bindery
import BinderyTesting
import Testing

/// The article "Users and access": a verifier, access rules, a sign-in form, played as users.
@MainActor
struct UsersTests {
    let ada = Viewer(user: User(id: "u-ada", name: "Ada", roles: ["admin"]))
    let grace = Viewer(user: User(id: "u-grace", name: "Grace"))

    func documents() -> SharedCollection<Document> {
        .inMemory(
            "documents",
            [Document(id: "d1", title: "Minutes", owner: "u-ada"), Document(id: "d2", title: "Plan", owner: "u-grace")],
            writableBy: .signedIn, deletableBy: DocumentRules.deleters
        )
    }

    @Test func aVerifierChecksHashedPasswords() async throws {
        let accounts = ["ada": (hash: await PasswordHash.make("correct horse", cost: 4), user: User(id: "u-ada", name: "Ada"))]
        let users = Users { credentials in
            let account = accounts[credentials.username]
            // An unknown account is checked against a dummy hash: the answer takes as long.
            guard await PasswordHash.verify(credentials.password, against: account?.hash) else { return nil }
            return account?.user
        }
        #expect(try await users.verify(Credentials(username: "ada", password: "correct horse"))?.name == "Ada")
        #expect(try await users.verify(Credentials(username: "ada", password: "battery")) == nil)
        #expect(try await users.verify(Credentials(username: "bob", password: "correct horse")) == nil)
    }

    @Test func aUserDeletesTheirOwnDocumentsAndNoOneElses() async throws {
        let documents = documents()
        let list = ViewModelTester(DocumentsViewModel(documents: documents, viewer: grace), viewer: grace)
        #expect(list.state.commands["resetHeading"]?.enabled == false)
        list.refuse("delete", ["id": "d1"], with: .forbidden(reason: "only its owner or an administrator may delete d1"))
        await list.refuseWrite(["heading": "Mine"], with: .forbidden(reason: "you may not change 'heading'"))
        try list.execute("delete", ["id": "d2"]) {
            $0.commands["delete"]?.executing = true
            $0.commands["delete"]?.enabled = false
        }
        await list.settle {
            $0.outputs["titles"] = ["Minutes"]
            $0.commands["delete"]?.executing = false
            $0.commands["delete"]?.enabled = true
        }
        list.finish()
    }

    @Test func anAdministratorMayDeleteAnyDocumentAndNobodyAnonymous() async throws {
        let documents = documents()
        let anonymous = ViewModelTester(DocumentsViewModel(documents: documents, viewer: Viewer()), viewer: Viewer())
        anonymous.refuse("delete", ["id": "d2"], with: .signInRequired)
        anonymous.finish()
        let list = ViewModelTester(DocumentsViewModel(documents: documents, viewer: ada), viewer: ada)
        try list.execute("delete", ["id": "d2"]) {
            $0.commands["delete"]?.executing = true
            $0.commands["delete"]?.enabled = false
        }
        await list.settle {
            $0.outputs["titles"] = ["Minutes"]
            $0.commands["delete"]?.executing = false
            $0.commands["delete"]?.enabled = true
        }
        list.refuse("delete", ["id": "d2"], with: .invalidArgument(command: "delete", reason: "there is no document d2"))
        list.finish()
    }

    @Test func theFormSignsInAndForgetsThePassword() async throws {
        let viewer = Viewer { credentials in credentials.password == "passw0rd" ? User(id: "u-ada", name: "Ada") : nil }
        let form = ViewModelTester(SignInViewModel(viewer: viewer), viewer: viewer)
        try await form.write(["username": "ada", "password": "passw0rd"]) {
            $0.inputs = ["username": "ada", "password": "passw0rd"]
            $0.commands["signIn"]?.enabled = true
        }
        try form.execute("signIn") {
            $0.commands["signIn"]?.executing = true
            $0.commands["signIn"]?.enabled = false
        }
        await form.settle {
            $0.inputs["password"] = ""
            $0.outputs["signedInAs"] = "Ada"
            $0.commands["signIn"]?.executing = false
        }
        form.finish()
    }
}
