import BinderyRuntime
import Foundation

/// A session on a Bindery server: the bearer token every request carries. Create one, or resume
/// one from a token you stored; then open the view models you show with ``view(_:)``, and sign in
/// with ``signIn(username:password:)`` when the app has users.
public struct BinderySession: Sendable {
    /// The server's address, e.g. `http://127.0.0.1:8080`.
    public let baseURL: URL
    let transport: Transport

    /// The session's bearer token now: store it to resume the session later (it is a secret). A
    /// sign-in replaces it — the server refuses the old one — so store it again after one.
    public var token: String { transport.token ?? "" }

    /// Resumes the session of `token` on the server at `baseURL`. Nothing is sent yet: a token the
    /// server does not know shows as a 401 ``RemoteProblem`` on the first request.
    public init(baseURL: URL, token: String) {
        self.baseURL = baseURL
        self.transport = Transport(baseURL: baseURL, token: token)
    }

    /// Creates a new session on the server at `baseURL` (`POST /api/sessions`).
    public static func create(at baseURL: URL) async throws -> BinderySession {
        let answer = try await Transport(baseURL: baseURL, token: nil).send("POST", "/api/sessions")
        guard answer.succeeded, let token = answer.json?.objectValue?["token"]?.stringValue else { throw answer.problem }
        return BinderySession(baseURL: baseURL, token: token)
    }

    /// The view model at `path` (`"counter"`, `"list/items/42/edit"`) of this session, not yet read:
    /// call ``RemoteViewModel/refresh()`` or ``RemoteViewModel/follow()`` to fill it.
    @MainActor public func view(_ path: String) -> RemoteViewModel {
        RemoteViewModel(path: path, transport: transport)
    }

    /// Signs the session in (`POST /api/session/sign-in`) and answers who it is signed in as. The
    /// server gives the session a new token, which this session and every view model opened from it
    /// carry from now on (``token``); its state stays. Throws the server's ``RemoteProblem``: 422 for
    /// wrong credentials, 429 after too many, 502 when the server could not check them.
    ///
    /// ```swift
    /// let session = try await BinderySession.create(at: server)
    /// let user = try await session.signIn(username: "18612345678", password: "passw0rd")
    /// ```
    @discardableResult
    public func signIn(username: String, password: String) async throws -> User {
        let body: JSONValue = ["username": .string(username), "password": .string(password)]
        let answer = try await transport.send("POST", "/api/session/sign-in", body: body)
        guard answer.succeeded, let json = answer.json?.objectValue, let token = json["token"]?.stringValue,
            let user = json["user"]?.decoded(as: User.self)
        else { throw answer.problem }
        transport.credential.replace(with: token)
        return user
    }

    /// Who the session is signed in as (`GET /api/session`); nil while anonymous.
    public func user() async throws -> User? {
        let answer = try await transport.send("GET", "/api/session")
        guard answer.succeeded, let json = answer.json?.objectValue else { throw answer.problem }
        return json["user"]?.decoded(as: User.self)
    }

    /// Signs out: the server ends the session for good (its token is refused from then on, its
    /// streams end). Create a new session to go on.
    public func signOut() async throws {
        let answer = try await transport.send("POST", "/api/session/sign-out")
        guard answer.succeeded else { throw answer.problem }
    }

    /// Ends every session of the signed-in user, on every device (this one too); answers how many.
    @discardableResult
    public func signOutEverywhere() async throws -> Int {
        let answer = try await transport.send("POST", "/api/session/sign-out-everywhere")
        guard answer.succeeded, let ended = answer.json?.objectValue?["ended"]?.intValue else { throw answer.problem }
        return ended
    }
}
