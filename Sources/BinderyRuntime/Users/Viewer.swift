import Observation
import Synchronization

/// Who a session's view models are shown to: the session, anonymous or signed in as a ``User``.
///
/// A screen's factory gets its session's viewer; a view model that keeps it reads ``user`` while
/// it renders, and Observation renders it again when the session signs in:
///
/// ```swift
/// Screen("todos", title: "Todos") { viewer in TodosViewModel(todos: todos, viewer: viewer) }
/// …
/// var greeting: String { viewer.user.map { "Hello, \($0.name)" } ?? "Sign in to see your todos" }
/// ```
///
/// While the server handles a request, ``current`` is that request's session's viewer, so code
/// deep in a command (or a ``SharedCollection``'s access rules) knows who asked.
public final class Viewer: Observable, Sendable {
    private struct State {
        var user: User?
        var signIn: (any SignInService)?
    }

    private let state: Mutex<State>
    private let registrar = ObservationRegistrar()
    /// Who the session is to others when it is not signed in (presence): a name of its own.
    private let anonymous: Collaborator

    /// A viewer signed in as `user` (nil: anonymous) outside any server, for tests and in-process
    /// use. With `signIn`, a sign-in command (``CommandDeclaration/signIn(_:summary:enabled:refusal:credentials:signedIn:)``)
    /// run as this viewer checks credentials with it — the user, or nil when they are wrong — and
    /// signs the viewer in; without, such a command fails.
    ///
    /// ```swift
    /// let viewer = Viewer { credentials in credentials.password == "passw0rd" ? User(id: "u1", name: "Li Lei") : nil }
    /// ```
    public convenience init(user: User? = nil, signIn: (@Sendable (Credentials) async throws -> User?)? = nil) {
        self.init(user: user, anonymous: Collaborator(id: "viewer", name: "Viewer", colour: "#4a5568"))
        if let signIn { connect(LocalSignIn(viewer: self, verify: signIn)) }
    }

    /// A session's viewer: `anonymous` is how it shows to others until it signs in.
    package init(user: User?, anonymous: Collaborator) {
        self.state = Mutex(State(user: user))
        self.anonymous = anonymous
    }

    /// The signed-in user; nil while the session is anonymous. Observed: a render that read it
    /// renders again when it changes.
    public var user: User? {
        registrar.access(self, keyPath: \.user)
        return state.withLock { $0.user }
    }

    /// Whether the session is signed in.
    public var isSignedIn: Bool { user != nil }

    /// The user without telling Observation (Bindery's own checks).
    package var currentUser: User? { state.withLock { $0.user } }

    /// Who the session is to other users (presence, who deleted what): the user's name once
    /// signed in, else a friendly name of the session's own. The id and colour stay the session's.
    public var collaborator: Collaborator {
        guard let user else { return anonymous }
        return Collaborator(id: anonymous.id, name: user.name, colour: anonymous.colour)
    }

    /// The viewer of the request being handled on this task, if any.
    @TaskLocal public static var current: Viewer?

    /// Records that the session is now signed in as `user` (or anonymous), for every render that
    /// read ``user``.
    package func setUser(_ user: User?) {
        registrar.withMutation(of: self, keyPath: \.user) {
            state.withLock { $0.user = user }
        }
    }

    /// How this viewer's session signs in (set by the server that owns the session).
    package func connect(_ service: any SignInService) {
        state.withLock { $0.signIn = service }
    }

    /// The sign-in service of the session, if it can sign in at all.
    package var signInService: (any SignInService)? { state.withLock { $0.signIn } }
}

/// How a session signs in: what a view model's sign-in command (``CommandDeclaration/signIn(_:summary:enabled:refusal:credentials:signedIn:)``)
/// uses. The server implements it: attempts are limited, the app's `Users` verifier checks the
/// credentials, and the session's token is replaced.
package protocol SignInService: Sendable {
    /// Refuses an attempt for `account` while its client or the account has failed too often:
    /// ``ViewModelError/tooManySignInAttempts(retryAfter:)``.
    func admit(account: String) throws(ViewModelError)
    /// Checks `credentials` and signs the session in: the user, or nil when the credentials are
    /// wrong (nothing changed). Throws when they could not be checked (the verifier's upstream
    /// failed: nothing changed).
    func signIn(_ credentials: Credentials) async throws -> User?
}

/// A viewer's sign-in outside a server (``Viewer/init(user:signIn:)``): no limits, no token, the
/// verifier's user becomes the viewer's.
private struct LocalSignIn: SignInService {
    weak var viewer: Viewer?
    let verify: @Sendable (Credentials) async throws -> User?

    func admit(account: String) throws(ViewModelError) {}

    func signIn(_ credentials: Credentials) async throws -> User? {
        guard let user = try await verify(credentials) else { return nil }
        viewer?.setUser(user)
        return user
    }
}
