import BinderyRuntime

/// The operations of the routes that do not come from view models: sessions, the catalogue,
/// health, metrics and this document. ``BinderyRoutes`` registers each with its route.
enum OpenAPIFixedPaths {
    /// `GET /api/views`.
    static let listScreens = operation(
        "listScreens", tag: "views", summary: "The screens",
        description: "The root view models a client can open, with their API paths, page URLs and child routes.",
        ok: ["description": "The catalogue.", "content": OpenAPI.content(OpenAPI.schema("ScreenCatalog"))]
    )

    /// `GET /healthz`.
    static let healthz = operation("healthz", tag: "operations", summary: "Liveness: the process answers", ok: health)

    /// `GET /readyz`.
    static let readyz = operation(
        "readyz", tag: "operations", summary: "Readiness: the server accepts work", ok: health,
        also: ["503": OpenAPI.response("ShuttingDown")]
    )

    /// `GET /metrics`.
    static let metrics = operation(
        "metrics", tag: "operations", summary: "Prometheus metrics",
        description: "Prometheus text exposition (version 0.0.4): requests, sessions, event streams, commands, "
            + "the store, the process, and the app's own metrics.",
        ok: ["description": "The metrics.", "content": OpenAPI.content(OpenAPI.string, as: "text/plain")]
    )

    /// `GET /openapi.json`.
    static let openAPI = operation(
        "openapi", tag: "operations", summary: "This document",
        description: "Generated from the screens' declarations, the routes and the server's configuration; "
            + "`<executable> openapi` prints the same document.",
        ok: ["description": "The OpenAPI 3.1 document.", "content": OpenAPI.content(["type": "object"])]
    )

    /// What `PUT /api/session` answers: whether it made the session, and who it is signed in as.
    private static let ensured = OpenAPI.object([
        "created": ["type": "boolean"], "user": OpenAPI.schema(Schema.nullableName(of: "User")),
    ])

    /// `PUT /api/session`: the client's session, made if it has none.
    static var ensureSession: JSONValue {
        var ensure =
            operation(
                "ensureSession", tag: "sessions", summary: "Make sure this client has a session",
                description: "Reading a screen needs no session (nothing is kept for it). A page that will write or watch "
                    + "calls this first, so its parallel requests share one session: the session the cookie or bearer "
                    + "token names (200), or a new one with its cookie (201); `user` says who it is signed in as (null: "
                    + "anonymous). An unknown bearer token is 401.",
                ok: ["description": "The request's session exists.", "content": OpenAPI.content(ensured)],
                also: [
                    "201": [
                        "description": "A new session; the cookie carries it.",
                        "headers": ["Set-Cookie": OpenAPI.header("SetCookie")],
                        "content": OpenAPI.content(ensured),
                    ],
                    "401": OpenAPI.response("Unauthorized"),
                ]
            ).objectValue ?? [:]
        ensure["security"] = OpenAPI.sessionSecurity
        return .object(ensure)
    }

    /// `GET /api/events`: the streams of several views over one connection.
    static var events: JSONValue {
        var watch =
            operation(
                "watchViews", tag: "views", summary: "Server-Sent Events of several views over one connection",
                description: "One stream for every view a page (or a browser's tabs) shows: a browser allows six HTTP/1.1 "
                    + "connections per host. Starts with `retry: 2000`; `: heartbeat` comments every 15 s. Each event's "
                    + "`data:` is `{\"view\": <path>, <event>: <payload>}`: `snapshot` (the snapshot; first for each view "
                    + "unless the resume point names its version), `patch` (an RFC 6902 patch from the version sent before; "
                    + "its first operation tests `/version`), `edits` and `presence` (as on a view's own stream), `problem` "
                    + "(an RFC 9457 problem: that view is not followed, the others are) and `end` (the session ended). "
                    + "Snapshots and patches carry `id: <path>@<version>,…`, every view's last version: resuming with it "
                    + "as `Last-Event-ID` resumes each view. Counts as one of the session's event streams. A server that "
                    + "serves its thin client first sends `client` (`{\"fingerprint\": <fingerprint>}`, no `view`: the client's "
                    + "files, as the `Bindery-Client` header of every answer of the API names them), and again when they change.",
                ok: [
                    "description": "The stream.",
                    "headers": [
                        "Set-Cookie": OpenAPI.header("SetCookie"),
                        "X-Accel-Buffering": ["schema": ["type": "string", "const": "no"]],
                    ],
                    "content": [
                        "text/event-stream": [
                            "schema": OpenAPI.string,
                            "example": "retry: 2000\n\nevent: snapshot\nid: form@1\ndata: {\"view\":\"form\",\"snapshot\":{...}}\n\n",
                        ]
                    ],
                ],
                also: [
                    "400": OpenAPI.response("BadRequest"), "401": OpenAPI.response("Unauthorized"),
                    "429": OpenAPI.response("TooManyStreams"), "503": OpenAPI.response("StreamsExhausted"),
                ]
            ).objectValue ?? [:]
        watch["security"] = OpenAPI.sessionSecurity
        watch["parameters"] = [
            [
                "name": "views", "in": "query", "required": true,
                "description": .string(
                    "The view paths to follow, separated by commas: 1 to \(EventsRoute.maxViews), "
                        + "each 1 to \(EventsRoute.maxPathLength) characters after an optional leading `/` (a path named "
                        + "twice counts once). A path that is no view of the session gets a `problem` event; a list "
                        + "outside these bounds is 400."),
                "schema": ["type": "string", "pattern": .string(viewsPattern)],
                "example": "list,list/items/42",
            ],
            [
                "name": "Last-Event-ID", "in": "header", "required": false,
                "description": .string(
                    "Resume: the `id:` of the last event received (`<path>@<version>,…`); an entry "
                        + "that is not `<path>@<version>` is ignored, and its view starts with a snapshot."),
                "schema": OpenAPI.string,
            ],
            [
                "name": "lastEventId", "in": "query", "required": false,
                "description": "Same as `Last-Event-ID`, for clients that cannot set headers (used when the header is absent).",
                "schema": OpenAPI.string,
            ],
        ]
        return .object(watch)
    }

    /// What `views=` takes (``EventsRoute/views(in:)``): 1 to `maxViews` comma-separated paths of 1 to
    /// `maxPathLength` characters, each after an optional leading `/`.
    static var viewsPattern: String {
        let path = "(?:[^,/][^,]{0,\(EventsRoute.maxPathLength - 1)}|/[^,]{1,\(EventsRoute.maxPathLength)})"
        return "^\(path)(?:,\(path)){0,\(EventsRoute.maxViews - 1)}$"
    }

    /// An operation without credentials whose other answers are the shared ones.
    static func operation(
        _ id: String, tag: String, summary: String, description: String? = nil, ok: JSONValue,
        also: [String: JSONValue] = [:]
    ) -> JSONValue {
        OpenAPI.operation(id, tag: tag, summary: summary, description: description, ok: ok, also: also)
    }

    /// `{"status": "ok"}`.
    private static let health: JSONValue = ["description": "OK.", "content": OpenAPI.content(OpenAPI.schema("Health"))]

    /// `POST /api/sessions`.
    static var createSession: JSONValue {
        var created =
            operation(
                "createSession", tag: "sessions", summary: "Create a session",
                description: "Creates a session and answers its token; also sets the session cookie. Send the token as "
                    + "`Authorization: Bearer <token>` (scripts) or let the browser carry the cookie. Requests without "
                    + "credentials create a session on first use, so this call is optional.",
                ok: [:]
            ).objectValue ?? [:]
        created["responses"] = [
            "201": [
                "description": "The new session.",
                "headers": [
                    "Set-Cookie": [
                        "description": .string(
                            "`bindery_session=<token>; Path=/; HttpOnly; SameSite=Strict`, and `; Secure` "
                                + "when the client came over TLS (through a TLS proxy)"),
                        "schema": OpenAPI.string, "required": true,
                    ]
                ],
                "content": OpenAPI.content(OpenAPI.schema("SessionCreated")),
            ],
            "431": OpenAPI.response("HeaderFieldsTooLarge"),
        ]
        return .object(created)
    }
}
