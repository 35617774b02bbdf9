import BinderyHTTP
import HTTPTypes

/// Finds the session a request belongs to, from its cookie or its bearer token.
///
/// Tokens never travel in URLs. An unknown bearer token is refused (401) so a script notices its
/// session expired; a browser with an unknown or missing cookie gets a new session and cookie.
/// An unknown token is never adopted as a new session's token.
package struct SessionResolver: Sendable {
    /// The name of the session cookie.
    package static let cookieName = "bindery_session"

    /// The store sessions live in.
    package let store: SessionRegistry
    /// Whether the client's address comes from `X-Forwarded-For` (see ``ClientAddress``), and
    /// its scheme from `X-Forwarded-Proto`.
    package let trustForwardedFor: Bool
    /// Whether session cookies are always `Secure` (the server is reached over TLS only).
    package let secureCookies: Bool

    /// Creates a resolver over `store`.
    package init(store: SessionRegistry, trustForwardedFor: Bool = false, secureCookies: Bool = false) {
        self.store = store
        self.trustForwardedFor = trustForwardedFor
        self.secureCookies = secureCookies
    }

    /// Whether the request presents a session token (a bearer token or the session cookie).
    func hasCredential(_ request: Request) -> Bool {
        credential(in: request) != nil
    }

    /// The request's session if it already exists, without creating one (the fast path).
    func existing(for request: Request) -> Session? {
        switch credential(in: request) {
        case .bearer(let token), .cookie(let token): store.session(for: token)
        case nil: nil
        }
    }

    /// The request's session, restored from the store when it is not in memory, and created
    /// when the request carries no valid cookie.
    ///
    /// Returns the `Set-Cookie` value to send when a session was created. (The route group's
    /// ``CrossSiteCheck`` has refused unsafe requests from other sites before.)
    func session(for request: Request) async throws(Problem) -> (session: Session, setCookie: String?) {
        if let session = try await existingSession(for: request) { return (session, nil) }
        do {
            let session = try await store.create(from: ClientAddress.of(request, trustingForwardedFor: trustForwardedFor))
            return (session, Self.cookie(for: session, secure: isSecure(request)))
        } catch {
            throw Problem(error)
        }
    }

    /// The request's session, restored from the store when it is not in memory; nil when it
    /// presents none or an unknown cookie (a read then needs none). An unknown bearer token is a
    /// 401 problem.
    func existingSession(for request: Request) async throws(Problem) -> Session? {
        switch credential(in: request) {
        case .bearer(let token):
            guard let session = try await restore(token, for: request) else {
                throw Problem(
                    status: .unauthorized, title: "Unknown session",
                    detail: "The bearer token is unknown or expired; create a session with POST /api/sessions.",
                    headers: [.wwwAuthenticate: "Bearer"]
                )
            }
            return session
        case .cookie(let token):
            return try await restore(token, for: request)
        case nil:
            return nil
        }
    }

    /// The session of `token`, restored for the request's address (its session count).
    private func restore(_ token: Substring, for request: Request) async throws(Problem) -> Session? {
        do {
            return try await store.restore(token, from: ClientAddress.of(request, trustingForwardedFor: trustForwardedFor))
        } catch {
            throw Problem(error)
        }
    }

    /// The `Set-Cookie` value that carries a session's token; `Secure` when the client reached
    /// the server over TLS.
    static func cookie(for session: Session, secure: Bool) -> String {
        cookie(session.token, secure: secure)
    }

    /// The `Set-Cookie` value that carries `token`.
    static func cookie(_ token: String, secure: Bool) -> String {
        "\(cookieName)=\(token); Path=/; HttpOnly; SameSite=Strict" + (secure ? "; Secure" : "")
    }

    /// The `Set-Cookie` value that removes the session cookie (a sign-out).
    static func clearingCookie(secure: Bool) -> String {
        "\(cookieName)=; Path=/; Max-Age=0; HttpOnly; SameSite=Strict" + (secure ? "; Secure" : "")
    }

    /// Whether `request` came over TLS, as far as the server can know: always with
    /// `secureCookies`; behind a trusted proxy, when it says `X-Forwarded-Proto: https`.
    func isSecure(_ request: Request) -> Bool {
        secureCookies
            || (trustForwardedFor
                && request.headers[HTTPField.Name("X-Forwarded-Proto")!]?.lowercased() == "https")
    }

    /// How a stream or a long-poll checks, once its watch is in place, that `request` still
    /// presents `session`'s token: a sign-in may have replaced it while the request waited. Always
    /// true for a request that presented none (its session was made for it).
    func tokenCheck(_ request: Request, for session: Session) -> @Sendable () -> Bool {
        guard let credential = credential(in: request) else { return { true } }
        let presented = SessionSecret(token: credential.token)
        return { session.secret == presented }
    }

    private enum Credential {
        case bearer(Substring)
        case cookie(Substring)

        var token: Substring {
            switch self {
            case .bearer(let token), .cookie(let token): token
            }
        }
    }

    private func credential(in request: Request) -> Credential? {
        if let authorization = request.headers.value(.authorization), let token = Self.bearerToken(in: authorization) {
            return .bearer(token)
        }
        for header in request.headers[values: .cookie] {
            for pair in header.split(separator: ";") {
                let trimmed = pair.drop { $0 == " " }
                guard let equals = trimmed.firstIndex(of: "=") else { continue }
                if trimmed[..<equals] == Self.cookieName {
                    return .cookie(trimmed[trimmed.index(after: equals)...])
                }
            }
        }
        return nil
    }

    /// The token of `Bearer <token>` (scheme in any letter case, spaces after it skipped), read
    /// from the bytes without copies: it runs on every request. `Bearer` with no token gives an
    /// empty one, which no session has (401), rather than no credential at all.
    static func bearerToken(in authorization: String) -> Substring? {
        let scheme = "bearer".utf8
        let utf8 = authorization.utf8
        guard utf8.starts(with: scheme, by: { $0 | 0x20 == $1 }) else { return nil }
        let rest = utf8.dropFirst(scheme.count)
        guard rest.isEmpty || rest.first == UInt8(ascii: " ") else { return nil }
        return Substring(rest.drop { $0 == UInt8(ascii: " ") })
    }
}
