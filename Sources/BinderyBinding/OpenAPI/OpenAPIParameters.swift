import BinderyRuntime

/// The shared parameters and headers of the OpenAPI document (`components/parameters`,
/// `components/headers`).
enum OpenAPIParameters {
    /// Every shared parameter, by name.
    static let all: [String: JSONValue] = [
        "IfNoneMatch": header(
            "If-None-Match",
            "Entity tags (`\"7\"`, `W/\"7\"`, `*`); when one names the current version the answer is 304."
        ),
        "IfMatch": header(
            "If-Match",
            "Entity tags (`\"7\"`, `W/\"7\"`, `*`). Naming an older version, the write is merged when none of the "
                + "inputs it writes changed since; otherwise it is refused with 412 and `fields` names them."
        ),
        "After": [
            "name": "after", "in": "query", "required": false,
            "description": .string(
                "Long-poll: answer as soon as a version newer than this exists; after the wait "
                    + "(`Prefer: wait=S`, default 30 s, at most 60 s) answer 304 with the current ETag. Anything but a "
                    + "version (an integer from 0 to 2^63 - 1) is 400."),
            "schema": version,
        ],
        "TextAfter": [
            "name": "after", "in": "query", "required": false,
            "description": .string(
                "A revision the client holds: the answer adds `from` and the `edits` since (null when "
                    + "no longer kept). Anything but a revision (an integer from 0 to 2^63 - 1) is 400."),
            "schema": version,
        ],
        "PreferWait": [
            "name": "Prefer", "in": "header", "required": false,
            "description": .string(
                "RFC 7240 `wait=S` (seconds, fractions allowed, capped at 60). Long-poll: how long to wait. "
                    + "Command: how long to wait for a command whose work awaits before answering 202 (default 0). "
                    + "Other preferences are ignored."),
            "schema": OpenAPI.string,
            "examples": ["wait": ["value": "wait=5"]],
        ],
        "LastEventID": [
            "name": "Last-Event-ID", "in": "header", "required": false,
            "description": .string(
                "Resume: the version the client already has (the `id:` of the last event received); "
                    + "the stream starts with the next one. A value that is not a version is ignored: the stream starts "
                    + "with the current snapshot, as without it."),
            "schema": version,
        ],
        "LastEventIdQuery": [
            "name": "lastEventId", "in": "query", "required": false,
            "description": .string(
                "Same as `Last-Event-ID`, for clients that cannot set headers (used when the header is "
                    + "absent); a value that is not a version is ignored too."),
            "schema": version,
        ],
        "IdempotencyKey": [
            "name": "Idempotency-Key", "in": "header", "required": false,
            "description": .string(
                "The client's id of this write (IETF httpapi draft), sent unchanged with each retry: the "
                    + "first answer is stored with the write and kept 24 h (while the session lives); a retry of the same "
                    + "request gets it again with `Idempotent-Replayed: true` and applies nothing, on any node and after a "
                    + "restart. The same key on another request (method, path, body) is 422; while the first still runs on "
                    + "another node, 409 with `Retry-After`. 1 to 255 visible ASCII characters without `\"` or `\\`, bare or "
                    + "as a structured-field string."),
            "schema": ["type": "string", "pattern": #"^([!#-\[\]-~]{1,255}|"[!#-\[\]-~]{1,255}")$"#],
            "examples": ["uuid": ["value": "5f0c9a3e-1b7d-4c2e-9a51-0f6a3d2b8e47"]],
        ],
        "PatchesQuery": [
            "name": "patches", "in": "query", "required": false,
            "description": .string(
                "`1`: send JSON Patch events (`event: patch`) after the first snapshot instead of whole "
                    + "snapshots; `0` (or any other value, or none): whole snapshots."),
            "schema": ["type": "string", "enum": ["0", "1"]],
        ],
    ]

    /// Every shared header, by name.
    static let headers: [String: JSONValue] = [
        "ETag": [
            "description": "The snapshot's version as a strong entity tag: `\"7\"`.",
            "schema": ["type": "string", "pattern": "^\"[0-9]+\"$"],
            "required": true,
        ],
        "SetCookie": [
            "description": .string(
                "Present when this request created the session (it had no valid cookie): "
                    + "`bindery_session=<token>; Path=/; HttpOnly; SameSite=Strict`, and `; Secure` when the client "
                    + "came over TLS (through a TLS proxy)."),
            "schema": OpenAPI.string,
        ],
        "Allow": ["description": "The methods the resource answers.", "schema": OpenAPI.string, "required": true],
        "IdempotentReplayed": [
            "description": "`true` on the stored answer given again to a retry with the same `Idempotency-Key`.",
            "schema": ["type": "string", "const": "true"],
        ],
    ]

    /// The ways to present a session (`components/securitySchemes`).
    static let securitySchemes: [String: JSONValue] = [
        "bearerAuth": [
            "type": "http", "scheme": "bearer", "description": "The token from POST /api/sessions (32 hex digits).",
        ],
        "sessionCookie": [
            "type": "apiKey", "in": "cookie", "name": "bindery_session",
            "description": "Set by the server on first use or by POST /api/sessions.",
        ],
    ]

    /// A version or revision, as the server reads it: a non-negative 64-bit integer.
    static let version: JSONValue = ["type": "integer", "minimum": 0, "maximum": .int(Int.max)]

    /// An optional string header parameter.
    private static func header(_ name: String, _ description: String) -> JSONValue {
        ["name": .string(name), "in": "header", "required": false, "description": .string(description), "schema": OpenAPI.string]
    }
}
