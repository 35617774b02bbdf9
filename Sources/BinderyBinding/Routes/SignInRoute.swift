import BinderyHTTP
import BinderyRuntime
import HTTPTypes

/// `POST /api/session/sign-in` with `{"username": …, "password": …}`: signs the request's session
/// in with the app's ``Users`` verifier (one is made for a client that has none, once the
/// credentials are right: a failed attempt makes nothing), and answers the user and
/// the session's new token, which the answer's cookie carries too. The old token is refused from
/// then on (a planted or stolen pre-sign-in token is worth nothing: OWASP's session fixation).
///
/// Wrong credentials are 422 with one detail whether the account exists or not; too many
/// failures for the account or from the address 429 with `Retry-After`; a verifier that cannot
/// check them (its upstream failed) 502; a session signed in as another user 409. Nothing
/// changes on any of them. The route group's ``CrossSiteCheck`` refuses a sign-in sent by
/// another site (login CSRF).
struct SignInRoute: HTTPResponder {
    let resolver: SessionResolver

    /// The longest username and password taken.
    static let maxUsernameLength = 256
    static let maxPasswordLength = 1024

    func respond(to request: Request) async throws -> Response {
        let credentials = try Self.credentials(in: request)
        let existing = try await resolver.existingSession(for: request)
        let registry = resolver.store
        // Counted as sessions are: an IPv6 client by its /64, as the sign-in command counts it.
        let address = ClientAddress.of(request, trustingForwardedFor: resolver.trustForwardedFor).map(CreationQuota.key(for:))
        let user: User
        let token: String
        let session: Session
        do {
            guard let verified = try await registry.verify(credentials, from: address) else {
                var response = Problem(
                    status: .unprocessableContent, title: "Sign-in failed", detail: "The username or password is wrong."
                ).response
                response.logMetadata["auth.sign_in"] = "refused"
                return existing.map { response.logging($0) } ?? response
            }
            user = verified
            if let existing { session = existing } else { session = try await resolver.session(for: request).session }
            token = try await registry.signIn(session, as: user)
        } catch let error as SignInError {
            var response = error.problem.response
            response.logMetadata["auth.sign_in"] = error.logValue
            return existing.map { response.logging($0) } ?? response
        }
        let body: JSONValue = ["token": .string(token), "user": user.json]
        var response = Response.json(JSONWriter.bytes(of: body), headers: [.cacheControl: "no-store"])
        response.headers.append(HTTPField(name: .setCookie, value: SessionResolver.cookie(for: session, secure: resolver.isSecure(request))))
        response.logMetadata["auth.sign_in"] = "signed_in"
        return response.logging(session)
    }

    /// The credentials the body names; a 400 or 422 problem when it is not
    /// `{"username": string, "password": string}` within their limits.
    static func credentials(in request: Request) throws(Problem) -> Credentials {
        guard let body = try JSONBody.decode(request) else {
            throw Problem(status: .badRequest, title: "Missing credentials", detail: #"Send {"username": …, "password": …}."#)
        }
        let schema = Schema.object([
            "username": .string(maxLength: maxUsernameLength), "password": .string(maxLength: maxPasswordLength),
        ])
        if let reason = schema.violation(by: body) {
            throw Problem(status: .unprocessableContent, title: "Invalid credentials", detail: "The body \(reason).")
        }
        return Credentials(username: body.objectValue?["username"]?.stringValue ?? "", password: body.objectValue?["password"]?.stringValue ?? "")
    }
}

/// `POST /api/session/sign-out`: ends the request's session for good — deleted from the store,
/// its event streams ended (`end`), its token refused from then on, on every node — and clears
/// its cookie. A request with no session has nothing to end (204 all the same).
struct SignOutRoute: HTTPResponder {
    let resolver: SessionResolver

    func respond(to request: Request) async throws -> Response {
        var response = Response(status: .noContent, headers: [.cacheControl: "no-store"])
        response.headers.append(HTTPField(name: .setCookie, value: SessionResolver.clearingCookie(secure: resolver.isSecure(request))))
        guard let session = try await resolver.existingSession(for: request) else { return response }
        try await resolver.store.signOut(session)
        response.logMetadata["auth.sign_out"] = "this_session"
        return response.logging(session)
    }
}

/// `POST /api/session/sign-out-everywhere`: ends every session of the signed-in user, on every
/// node (their streams get `end`, their tokens 401), this one included; answers how many
/// (`{"ended": n}`). An anonymous session gets 401.
struct SignOutEverywhereRoute: HTTPResponder {
    let resolver: SessionResolver

    func respond(to request: Request) async throws -> Response {
        guard let session = try await resolver.existingSession(for: request), let user = session.user else {
            throw Problem.signInRequired
        }
        let ended = try await resolver.store.signOutEverywhere(user: user.id)
        var response = Response.json(JSONWriter.bytes(of: ["ended": .int(ended)]), headers: [.cacheControl: "no-store"])
        response.headers.append(HTTPField(name: .setCookie, value: SessionResolver.clearingCookie(secure: resolver.isSecure(request))))
        response.logMetadata["auth.sign_out"] = "everywhere"
        return response.logging(session)
    }
}
