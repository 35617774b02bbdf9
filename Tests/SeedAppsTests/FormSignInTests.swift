import BinderyRuntime
import BinderyTesting
import SeedApps
import Synchronization
import Testing

/// The form's `signIn` (seed 000 Demo 2, issue 37) in process: enabled only while both fields are
/// valid; a sign-in that succeeds clears the password and shows who is signed in; a refused one
/// fails with the 422 refusal and changes nothing. The server's sign-in is a fake of one account.
@MainActor
@Suite("The form's sign-in (seed 000 Demo 2)")
struct FormSignInTests {
    static let hanMeimei = User(id: "u-hanmeimei", name: "Han Meimei")
    static let right = Credentials(username: "13800000000", password: "hunter22")

    static func idle(enabled: Bool, error: JSONValue = nil) -> SnapshotState.CommandState {
        .init(enabled: enabled, executing: false, error: error, policy: "serial")
    }

    /// The form of an anonymous session that signs in through a fake of the server's sign-in;
    /// the script plays as that session (``Viewer/current``).
    static func form() -> (ViewModelTester<FormViewModel>, Viewer, OneAccountSignIn) {
        let viewer = Viewer()
        let service = OneAccountSignIn(viewer: viewer, credentials: right, user: hanMeimei)
        viewer.connect(service)
        return (ViewModelTester(FormViewModel(viewer: viewer), viewer: viewer), viewer, service)
    }

    @Test func signInIsEnabledOnlyWhileBothFieldsAreValid() async throws {
        let (form, viewer, service) = Self.form()
        #expect(form.state.commands["signIn"] == Self.idle(enabled: false))
        form.refuse("signIn", with: .commandDisabled(name: "signIn"))
        try await form.write(["phone": "13800000000"]) {
            $0.inputs["phone"] = "13800000000"
            $0.outputs["output"] = "手机号:13800000000, 密码:"
            $0.outputs["phoneValid"] = true
            $0.outputs["phoneColor"] = "black"
        }
        form.refuse("signIn", with: .commandDisabled(name: "signIn"))
        try await form.write(["password": "hunter22"]) {
            $0.inputs["password"] = "hunter22"
            $0.outputs["output"] = "手机号:13800000000, 密码:hunter22"
            $0.outputs["passwordValid"] = true
            $0.outputs["passwordColor"] = "black"
            $0.commands["clear"]?.enabled = true
            $0.commands["signIn"]?.enabled = true
        }
        try await form.write(["phone": "1380000000"]) {
            $0.inputs["phone"] = "1380000000"
            $0.outputs["output"] = "手机号:1380000000, 密码:hunter22"
            $0.outputs["phoneValid"] = false
            $0.outputs["phoneColor"] = "red"
            $0.commands["clear"]?.enabled = false
            $0.commands["signIn"]?.enabled = false
        }
        form.refuse("signIn", with: .commandDisabled(name: "signIn"))
        #expect(service.tried.isEmpty, "a disabled sign-in checks nothing")
        #expect(viewer.user == nil)
        form.finish()
    }

    @Test func aSignInClearsThePasswordAndShowsWhoIsSignedIn() async throws {
        let (form, viewer, service) = Self.form()
        try await form.enterValid(phone: "13800000000", password: "hunter22")
        try form.execute("signIn") {
            $0.commands["signIn"] = .init(enabled: false, executing: true, error: nil, policy: "serial")
        }
        await form.settle {
            $0.inputs["password"] = ""
            $0.outputs["output"] = "手机号:13800000000, 密码:"
            $0.outputs["passwordValid"] = false
            $0.outputs["passwordColor"] = "red"
            $0.outputs["signedInAs"] = "Han Meimei"
            $0.commands["clear"]?.enabled = false
            $0.commands["signIn"] = Self.idle(enabled: false)
        }
        #expect(service.tried == [Self.right])
        #expect(viewer.user == Self.hanMeimei)
        form.finish()
    }

    @Test func aRefusedSignInFailsWithTheRefusalAndChangesNothing() async throws {
        let (form, viewer, service) = Self.form()
        try await form.enterValid(phone: "13800000000", password: "hunter23")
        try form.execute("signIn") {
            $0.commands["signIn"] = .init(enabled: false, executing: true, error: nil, policy: "serial")
        }
        let refusal: JSONValue = ["message": "Wrong phone number or password.", "code": 422, "origin": "rule"]
        await form.settle {
            $0.commands["signIn"] = Self.idle(enabled: true, error: refusal)
        }
        // Again, awaited: the same refusal (answered 422 over HTTP), and still nothing changed.
        let again = try await Viewer.$current.withValue(viewer) { try await form.model.execute("signIn") }
        #expect(again == .failure(.signInRefused("Wrong phone number or password.")))
        #expect(
            service.tried == [
                Credentials(username: "13800000000", password: "hunter23"), Credentials(username: "13800000000", password: "hunter23"),
            ])
        #expect(viewer.user == nil)
        form.finish()
    }
}

/// The server's sign-in as a view model's sign-in command sees it, with one account: the viewer
/// is signed in when the credentials are that account's, nothing happens otherwise. Remembers
/// every attempt.
final class OneAccountSignIn: SignInService {
    let viewer: Viewer
    let credentials: Credentials
    let user: User
    private let attempts = Mutex<[Credentials]>([])

    init(viewer: Viewer, credentials: Credentials, user: User) {
        self.viewer = viewer
        self.credentials = credentials
        self.user = user
    }

    /// The credentials every attempt checked, in order.
    var tried: [Credentials] { attempts.withLock { $0 } }

    func admit(account: String) throws(ViewModelError) {}

    func signIn(_ submitted: Credentials) async throws -> User? {
        attempts.withLock { $0.append(submitted) }
        guard submitted == credentials else { return nil }
        viewer.setUser(user)
        return user
    }
}
