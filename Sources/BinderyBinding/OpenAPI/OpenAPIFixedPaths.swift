import BinderyRuntime

/// The paths that do not come from view models: sessions, the catalogue, the fake upstream,
/// health, metrics and this document.
enum OpenAPIFixedPaths {
    /// The fixed paths; `/api/upstream` only when `upstreamControl` is on.
    static func all(upstreamControl: Bool) -> [String: JSONValue] {
        var paths: [String: JSONValue] = [
            "/api/sessions": ["post": createSession],
            "/api/views": ["get": operation(
                "listScreens", tag: "views", summary: "The screens",
                description: "The root view models a client can open, with their API paths, page URLs and child routes.",
                ok: ["description": "The catalogue.", "content": OpenAPI.content(OpenAPI.schema("ScreenCatalog"))]
            )],
            "/upstream/images/{name}": ["get": image],
            "/healthz": ["get": operation("healthz", tag: "operations", summary: "Liveness: the process answers", ok: health)],
            "/readyz": ["get": operation(
                "readyz", tag: "operations", summary: "Readiness: the server accepts work", ok: health,
                also: ["503": OpenAPI.response("ShuttingDown")]
            )],
            "/metrics": ["get": operation(
                "metrics", tag: "operations", summary: "Prometheus metrics",
                description: "Prometheus text exposition (version 0.0.4): requests, sessions, event streams, commands, "
                    + "upstream calls.",
                ok: ["description": "The metrics.", "content": OpenAPI.content(OpenAPI.string, as: "text/plain")]
            )],
            "/openapi.json": ["get": operation(
                "openapi", tag: "operations", summary: "This document",
                description: "Generated from the screens' declarations and the server's configuration; "
                    + "`bindery openapi` prints the same document.",
                ok: ["description": "The OpenAPI 3.1 document.", "content": OpenAPI.content(["type": "object"])]
            )],
        ]
        if upstreamControl {
            paths["/api/upstream"] = OpenAPIUpstreamPaths.settings
        }
        return paths
    }

    /// An operation without credentials whose other answers are the shared ones.
    static func operation(
        _ id: String, tag: String, summary: String, description: String? = nil, ok: JSONValue,
        also: [String: JSONValue] = [:]
    ) -> JSONValue {
        var operation: [String: JSONValue] = [
            "operationId": .string(id),
            "tags": [.string(tag)],
            "summary": .string(summary),
            "responses": .object(["200": ok, "431": OpenAPI.response("HeaderFieldsTooLarge")].merging(also) { $1 }),
        ]
        if let description { operation["description"] = .string(description) }
        return .object(operation)
    }

    /// `{"status": "ok"}`.
    private static let health: JSONValue = ["description": "OK.", "content": OpenAPI.content(OpenAPI.schema("Health"))]

    /// `POST /api/sessions`.
    private static var createSession: JSONValue {
        var created = operation(
            "createSession", tag: "sessions", summary: "Create a session",
            description: "Creates a session and answers its token; also sets the session cookie. Send the token as "
                + "`Authorization: Bearer <token>` (scripts) or let the browser carry the cookie. Requests without "
                + "credentials create a session on first use, so this call is optional.",
            ok: [:]
        ).objectValue ?? [:]
        created["responses"] = [
            "201": [
                "description": "The new session.",
                "headers": ["Set-Cookie": [
                    "description": .string("`bindery_session=<token>; Path=/; HttpOnly; SameSite=Strict`, and `; Secure` "
                        + "when the client came over TLS (through a TLS proxy)"),
                    "schema": OpenAPI.string, "required": true,
                ]],
                "content": OpenAPI.content(OpenAPI.schema("SessionCreated")),
            ],
            "431": OpenAPI.response("HeaderFieldsTooLarge"),
        ]
        return .object(created)
    }

    /// `GET /upstream/images/{name}`.
    private static var image: JSONValue {
        var image = operation(
            "getUpstreamImage", tag: "upstream", summary: "An image of the fake upstream",
            description: "Front images of spots and hotels, photo thumbnails and full-size photos, generated as SVG.",
            ok: [
                "description": "The image (cacheable for a day).",
                "headers": ["Cache-Control": ["schema": ["type": "string", "const": "public, max-age=86400"]]],
                "content": OpenAPI.content(OpenAPI.string, as: "image/svg+xml"),
            ],
            also: ["400": OpenAPI.response("BadRequest"), "404": OpenAPI.response("NotFound")]
        ).objectValue ?? [:]
        image["parameters"] = [[
            "name": "name", "in": "path", "required": true,
            "description": "The image's name, with or without `.svg`: letters, digits, `-`, `_`, `.`; no leading dot, no `..`.",
            "schema": ["type": "string", "maxLength": 132],
            "examples": ["thumbnail": ["value": "photo-p01-thumb.svg"], "front": ["value": "scenic-gugong.svg"]],
        ]]
        return .object(image)
    }
}
