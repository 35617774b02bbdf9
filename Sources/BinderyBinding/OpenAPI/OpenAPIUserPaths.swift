import BinderyRuntime

/// The operations of who a session is and of signing in and out (served when the app has
/// ``Users``), registered by ``BinderyRoutes`` with their routes.
enum OpenAPIUserPaths {
    /// `GET /api/session`.
    static var sessionInfo: JSONValue {
        var info =
            OpenAPIFixedPaths.operation(
                "getSession", tag: "sessions", summary: "Who this session is",
                description: "The signed-in user (null while anonymous) and how others see the session (presence). "
                    + "Makes no session: without one, both are null. An unknown bearer token is 401.",
                ok: ["description": "The session.", "content": OpenAPI.content(OpenAPI.schema("SessionInfo"))],
                also: ["401": OpenAPI.response("Unauthorized")]
            ).objectValue ?? [:]
        info["security"] = OpenAPI.sessionSecurity
        return .object(info)
    }

    /// `POST /api/session/sign-in`.
    static var signIn: JSONValue {
        var signIn =
            OpenAPIFixedPaths.operation(
                "signIn", tag: "sessions", summary: "Sign in",
                description: "Checks the credentials with the app's verifier and signs the session in (one is made when the "
                    + "request has none). The session keeps its state but gets a new token: the answer carries it "
                    + "(`token`, and the cookie), and the old token is refused from then on (401). Wrong credentials are "
                    + "422 whether the account exists or not; failed attempts are limited per account and per address "
                    + "(429 with `Retry-After`). A browser on another site cannot sign in here (403). The answer is never "
                    + "kept for an `Idempotency-Key` replay: it holds a secret.",
                ok: [
                    "description": "Signed in: the user and the session's new token.",
                    "headers": ["Set-Cookie": OpenAPI.header("SetCookie")],
                    "content": OpenAPI.content(OpenAPI.schema("SignedIn")),
                ],
                also: [
                    "400": OpenAPI.response("BadRequest"), "401": OpenAPI.response("Unauthorized"),
                    "403": OpenAPI.response("Forbidden"), "409": OpenAPI.response("Conflict"),
                    "413": OpenAPI.response("ContentTooLarge"), "415": OpenAPI.response("UnsupportedMediaType"),
                    "422": OpenAPI.response("SignInFailed"), "429": OpenAPI.response("TooManySignIns"),
                    "502": OpenAPI.response("BadGateway"),
                ]
            ).objectValue ?? [:]
        signIn["security"] = OpenAPI.sessionSecurity
        signIn["requestBody"] = ["required": true, "content": OpenAPI.content(OpenAPI.schema("Credentials"))]
        return .object(signIn)
    }

    /// `POST /api/session/sign-out`.
    static var signOut: JSONValue {
        var signOut =
            OpenAPIFixedPaths.operation(
                "signOut", tag: "sessions", summary: "Sign out (end this session)",
                description: "Ends the session for good: deleted from the store, its event streams end (`end`), its token "
                    + "is refused from then on on every node, and its cookie is cleared. Without a session: nothing to end.",
                ok: [:],
                also: ["401": OpenAPI.response("Unauthorized"), "403": OpenAPI.response("Forbidden")]
            ).objectValue ?? [:]
        var responses = signOut["responses"]?.objectValue ?? [:]
        responses["200"] = nil
        responses["204"] = ["description": "Signed out.", "headers": ["Set-Cookie": OpenAPI.header("SetCookie")]]
        signOut["responses"] = .object(responses)
        signOut["security"] = OpenAPI.sessionSecurity
        return .object(signOut)
    }

    /// `POST /api/session/sign-out-everywhere`.
    static var signOutEverywhere: JSONValue {
        var everywhere =
            OpenAPIFixedPaths.operation(
                "signOutEverywhere", tag: "sessions", summary: "Sign out everywhere",
                description: "Ends every session of the signed-in user, on every node, this one included: their streams "
                    + "end (`end`) and their tokens are refused (401). Answers how many ended. Anonymous: 401.",
                ok: [
                    "description": "The user's sessions ended.",
                    "headers": ["Set-Cookie": OpenAPI.header("SetCookie")],
                    "content": OpenAPI.content(OpenAPI.object(["ended": ["type": "integer", "minimum": 0]])),
                ],
                also: ["401": OpenAPI.response("Unauthorized"), "403": OpenAPI.response("Forbidden")]
            ).objectValue ?? [:]
        everywhere["security"] = OpenAPI.sessionSecurity
        return .object(everywhere)
    }

    /// The schemas these operations refer to.
    static var schemas: [String: JSONValue] {
        let user = OpenAPI.schema("User")
        return [
            "User": User.schema.unnamed.jsonSchema(),
            Schema.nullableName(of: "User"): Schema.nullable(User.schema.unnamed).jsonSchema(),
            "Credentials": OpenAPI.object([
                "username": ["type": "string", "maxLength": .int(SignInRoute.maxUsernameLength)],
                "password": ["type": "string", "maxLength": .int(SignInRoute.maxPasswordLength), "format": "password"],
            ]),
            "SignedIn": OpenAPI.object(["token": ["type": "string", "pattern": "^[0-9a-f]{32}$"], "user": user]),
            "SessionInfo": OpenAPI.object([
                "user": OpenAPI.schema(Schema.nullableName(of: "User")),
                "collaborator": OpenAPI.nullable(
                    OpenAPI.object(["id": OpenAPI.string, "name": OpenAPI.string, "colour": OpenAPI.string])
                ),
            ]),
        ]
    }

    /// The shared responses of signing in and of access rules.
    static var responses: [String: JSONValue] {
        var tooMany = OpenAPI.problem("Too many sign-ins failed for this account or from this address.").objectValue ?? [:]
        tooMany["headers"] = ["Retry-After": ["schema": OpenAPI.string, "description": "Seconds.", "required": true]]
        return [
            "Forbidden": OpenAPI.problem(
                "Refused: a browser request from another site (`Cross-site request refused`), or the session's user may "
                    + "not do this (`Not allowed`, an access rule). Nothing changed."
            ),
            "SignInFailed": OpenAPI.problem(
                "The username or password is wrong (the same answer whether the account exists or not), or the body "
                    + "is not `{username, password}` within their lengths. Nothing changed."
            ),
            "TooManySignIns": .object(tooMany),
        ]
    }
}
