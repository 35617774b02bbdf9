import Bindery
import Observation

/// A document of the team's, owned by the user who wrote it.
struct Document: SharedRecord {
    var id: String
    var version = 1
    var title: String
    var owner: String
}

enum DocumentRules {
    /// Who may delete a document: its owner, or an administrator.
    static let deleters = Access<Document>.when { user, document in document.owner == user.id || user.has(role: "admin") }

    /// The team's documents: anyone signed in writes, an owner or an administrator deletes.
    static func documents(_ firstStart: [Document] = []) -> SharedCollection<Document> {
        SharedCollection("documents", firstStart: firstStart, writableBy: .signedIn, deletableBy: deleters)
    }
}

/// The team's documents, for signed-in sessions only.
@Observable
final class DocumentsViewModel: ViewModel {
    let commandStates = CommandStates()
    var heading = "Documents"
    @ObservationIgnored let documents: SharedCollection<Document>
    @ObservationIgnored let viewer: Viewer

    init(documents: SharedCollection<Document>, viewer: Viewer) {
        self.documents = documents
        self.viewer = viewer
    }

    var signedInAs: String? { viewer.user?.name }

    struct DocumentID: CommandArgument {
        let id: String
        static let schema = Schema.named("DocumentID", .object(["id": .text]))
    }

    static let declaration = ViewModelDeclaration<DocumentsViewModel>(
        "Documents",
        summary: "The team's documents.",
        inputs: [
            // One input: editors only.
            .string("heading", \.heading, maxLength: 80).writable(by: .role("editor"))
        ],
        outputs: [
            .optionalString("signedInAs") { $0.signedInAs },
            .init("titles", schema: .array(.text)) { model in
                .array(model.documents.records.sorted { $0.id < $1.id }.map { .string($0.title) })
            },
        ],
        commands: [
            .deferred("delete", summary: "Deletes a document: one's own, or any for an administrator.", argument: DocumentID.self) {
                model, argument throws(ViewModelError) in
                guard let document = model.documents.record(id: argument.id) else {
                    throw .invalidArgument(command: "delete", reason: "there is no document \(argument.id)")
                }
                try DocumentRules.deleters.check(document, reason: "only its owner or an administrator may delete \(document.id)")
                let documents = model.documents
                return {
                    try await documents.delete(id: document.id)
                    return .none
                }
            },
            // One command: administrators only.
            .immediate(
                "resetHeading", summary: "Puts the heading back.",
                run: { model, _ in
                    model.heading = "Documents"
                    return .none
                }
            ).executable(by: .role("admin")),
        ]
    )
    // The list and every page below it: signed-in sessions only.
    .readable(by: .signedIn)
}

/// A sign-in form: a username, a password that never rests in plain text, and its command.
@Observable
final class SignInViewModel: ViewModel {
    let commandStates = CommandStates()
    var username = ""
    var password = ""
    @ObservationIgnored let viewer: Viewer

    init(viewer: Viewer) {
        self.viewer = viewer
    }

    static let declaration = ViewModelDeclaration<SignInViewModel>(
        "SignIn",
        summary: "Signs the session in.",
        inputs: [
            .string("username", \.username, maxLength: 100),
            .string("password", \.password, maxLength: 256).sensitive(),
        ],
        outputs: [.optionalString("signedInAs") { $0.viewer.user?.name }],
        commands: [
            .signIn(
                "signIn", summary: "Signs in with the username and password; enabled while both are given.",
                enabled: { !$0.username.isEmpty && !$0.password.isEmpty },
                credentials: { Credentials(username: $0.username, password: $0.password) },
                // The password has done its job: it does not stay in the form.
                signedIn: { model, _ in model.password = "" }
            )
        ]
    )
}

extension DocumentsViewModel {
    /// The app: a sign-in form and the documents, an administrators' route, the team's `users`.
    static func app(documents: SharedCollection<Document> = DocumentRules.documents(), users: Users) -> BinderyApp {
        BinderyApp(
            screens: [
                Screen("sign-in", title: "Sign in") { viewer in SignInViewModel(viewer: viewer) },
                Screen("documents", title: "Documents") { viewer in DocumentsViewModel(documents: documents, viewer: viewer) },
            ],
            sharedModels: [documents],
            routes: [Route(.delete, "/api/cache", access: .role("admin")) { _ in Response(status: .noContent) }],
            users: users
        )
    }
}
