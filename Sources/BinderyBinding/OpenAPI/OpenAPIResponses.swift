import BinderyRuntime

/// The shared responses of the OpenAPI document (`components/responses`).
enum OpenAPIResponses {
    /// Every shared response, by name.
    static var all: [String: JSONValue] {
        problems.mapValues(OpenAPI.problem).merging(others) { first, _ in first }
    }

    /// The responses that are a problem and nothing more, by name, with their descriptions.
    private static let problems: [String: String] = [
        "BadRequest":
            "Malformed request: the body is not JSON, the path or query is not valid, or a parameter is outside the "
            + "bounds this document declares for it (`after`, `views`, `Idempotency-Key`).",
        "NotFound": "No such view model, command, image or file.",
        "PreconditionFailed":
            "`If-Match` names an older version and the inputs written changed since (named in `fields`), or a version older than the history kept (412); nothing changed.",
        "ContentTooLarge": "The body is larger than the limit (1 MiB by default); the connection is closed.",
        "UnsupportedMediaType":
            "A POST/PUT/PATCH body that is not JSON (`application/json`, `application/merge-patch+json`, any `+json`).",
        "UnprocessableContent":
            "Valid JSON that the view model refuses: unknown or invalid input, a patch that is not an object, "
            + "a wrong command argument, an `Idempotency-Key` used before for another request (`Idempotency key "
            + "reused`). Nothing changed.",
        "Conflict":
            "The command is disabled in the current state (`Command disabled`) or already executing and its policy "
            + "is `serial` (`Command already executing`); its work was refused by a rule (`Command failed`); or the "
            + "awaited execution was cancelled (`Command cancelled`), which changed nothing. `command` names it. "
            + "Or the request with this `Idempotency-Key` still runs on another node (`Request in progress`, with "
            + "`Retry-After`).",
        "QueueFull":
            "The command's policy is `queue` and its queue is full (`Command queue full`); try again when an "
            + "execution has finished. `command` names it.",
        "BadGateway":
            "The command's work failed upstream (`code` is the upstream's code, e.g. `\"500\"` for Bad Network).",
        "InternalError": "The command's work failed for another reason (no internals are shown).",
        "RevisionTooOld":
            "The edit's `base` is older than the edits kept (the store's version log): reload the text (GET) and "
            + "send the edit again on its revision. Nothing changed.",
        "TooManyStreams": "This session already holds its maximum of open event streams (16 by default).",
    ]

    /// The responses with headers or another media type.
    private static var others: [String: JSONValue] {
        var unauthorized =
            OpenAPI.problem(
                "The bearer token is unknown or expired (`Unknown session`; create a session with POST /api/sessions — an "
                    + "unknown cookie gets a fresh session instead), or what was asked needs a signed-in session and this one "
                    + "is anonymous (`Sign-in required`; sign in with POST /api/session/sign-in). Nothing changed."
            ).objectValue ?? [:]
        unauthorized["headers"] = ["WWW-Authenticate": ["schema": ["type": "string", "const": "Bearer"], "required": true]]
        var methodNotAllowed =
            OpenAPI.problem(
                "The path exists but not with this method; `Allow` lists the methods."
            ).objectValue ?? [:]
        methodNotAllowed["headers"] = ["Allow": OpenAPI.header("Allow")]
        var streamsExhausted =
            OpenAPI.problem(
                "The server holds its maximum of event streams (1000 by default), or it is shutting down."
            ).objectValue ?? [:]
        streamsExhausted["headers"] = [
            "Retry-After": ["schema": OpenAPI.string, "description": "Seconds (5) when the stream limit was hit."]
        ]
        var shuttingDown =
            OpenAPI.problem(
                "The server is shutting down (`Shutting down`): a request that arrived meanwhile, or one still waiting "
                    + "two seconds after the stop began (a command's `Prefer: wait`, a long-poll). Try again: another "
                    + "node, or this one restarted."
            ).objectValue ?? [:]
        shuttingDown["headers"] = ["Retry-After": ["schema": OpenAPI.string, "description": "Seconds (2)."]]
        return [
            "ShuttingDown": .object(shuttingDown),
            "Unauthorized": .object(unauthorized),
            "MethodNotAllowed": .object(methodNotAllowed),
            "StreamsExhausted": .object(streamsExhausted),
            "HeaderFieldsTooLarge": [
                "description": .string(
                    "The request's headers do not fit the connection's memory pool; answered by libmicrohttpd "
                        + "itself as a small HTML page, and the connection is closed."),
                "content": OpenAPI.content(OpenAPI.string, as: "text/html"),
            ],
            "NotModified": [
                "description": "Nothing newer: `If-None-Match` names the current version, or a long-poll timed out.",
                "headers": ["ETag": OpenAPI.header("ETag")],
            ],
        ]
    }
}
