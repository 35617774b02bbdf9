import Foundation

/// A session on a Bindery server: the bearer token every request carries. Create one, or resume
/// one from a token you stored; then open the view models you show with ``view(_:)``.
public struct BinderySession: Sendable {
    /// The server's address, e.g. `http://127.0.0.1:8080`.
    public let baseURL: URL
    /// The session's bearer token: store it to resume the session later (it is a secret).
    public let token: String
    let transport: Transport

    /// Resumes the session of `token` on the server at `baseURL`. Nothing is sent yet: a token the
    /// server does not know shows as a 401 ``RemoteProblem`` on the first request.
    public init(baseURL: URL, token: String) {
        self.baseURL = baseURL
        self.token = token
        self.transport = Transport(baseURL: baseURL, token: token)
    }

    /// Creates a new session on the server at `baseURL` (`POST /api/sessions`).
    public static func create(at baseURL: URL) async throws -> BinderySession {
        let answer = try await Transport(baseURL: baseURL, token: nil).send("POST", "/api/sessions")
        guard answer.succeeded, let token = answer.json?.objectValue?["token"]?.stringValue else { throw answer.problem }
        return BinderySession(baseURL: baseURL, token: token)
    }

    /// The view model at `path` (`"form"`, `"recipes/c41/edit"`) of this session, not yet read:
    /// call ``RemoteViewModel/refresh()`` or ``RemoteViewModel/follow()`` to fill it.
    @MainActor public func view(_ path: String) -> RemoteViewModel {
        RemoteViewModel(path: path, transport: transport)
    }
}
