import BinderyRuntime

/// The API paths of working together on one view model: each collaborative text input
/// (`inputs/{name}`, `inputs/{name}/ops`) and the screen's presence.
enum OpenAPICollaborationPaths {
    /// The paths under `base` (the view model's path template), keyed by template.
    static func paths(of route: OpenAPIViewRoute, under base: String) -> [String: JSONValue] {
        var paths: [String: JSONValue] = ["\(base)/presence": presence(route)]
        for input in route.schema.inputs where input.isCollaborative {
            let name = OpenAPI.capitalized(input.name)
            paths["\(base)/inputs/\(input.name)"] = [
                "get": .object(
                    OpenAPIViewPaths.operation(
                        "get\(route.name)\(name)Text", of: route, summary: "Collaborative text `\(input.name)`: \(route.title)",
                        description: "The text and its revision (the shared record's version, the same in every session). "
                            + "With `after`, also the edits since that revision (`edits` is null when no longer kept: reload).",
                        parameters: ["TextAfter"],
                        responses: [
                            "200": ["description": "The text.", "content": OpenAPI.content(OpenAPI.schema("CollaborativeText"))],
                            "400": OpenAPI.response("BadRequest"),
                        ]
                    ))
            ]
            var post = OpenAPIViewPaths.operation(
                "edit\(route.name)\(name)", of: route, summary: "Edit collaborative text `\(input.name)`: \(route.title)",
                description: "Applies json0 text operations made on revision `base` (offsets in Unicode scalars), transformed "
                    + "against every edit applied since (server-ordered operational transformation). Answers the new "
                    + "revision, the ops as applied and the edits they were transformed against. A repeated `id` answers "
                    + "the first answer again and applies nothing. Watchers get the ops as `event: edits`.",
                responses: [
                    "200": ["description": "Applied.", "content": OpenAPI.content(OpenAPI.schema("TextEditApplied"))],
                    "400": OpenAPI.response("BadRequest"),
                    "409": OpenAPI.response("RevisionTooOld"),
                    "413": OpenAPI.response("ContentTooLarge"),
                    "415": OpenAPI.response("UnsupportedMediaType"),
                    "422": OpenAPI.response("UnprocessableContent"),
                ],
                writes: true, unsafe: true
            )
            post["requestBody"] = ["required": true, "content": OpenAPI.content(OpenAPI.schema("TextEdit"))]
            paths["\(base)/inputs/\(input.name)/ops"] = ["post": .object(post)]
        }
        return paths
    }

    /// `GET`, `PUT`, `DELETE /api/views/{path}/presence`.
    private static func presence(_ route: OpenAPIViewRoute) -> JSONValue {
        let answer: [String: JSONValue] = [
            "200": ["description": "You and the others on this screen.", "content": OpenAPI.content(OpenAPI.schema("Presence"))]
        ]
        var put = OpenAPIViewPaths.operation(
            "arrive\(route.name)", of: route, summary: "I am here: \(route.title)",
            description: "Says this session is on the screen, in `field` (an input name, or a child's path and input). "
                + "Repeat every 5 s; 12 s after the last, the session is taken as gone. Not stored. Everyone else on the "
                + "screen gets `event: presence` on its stream when someone arrives, moves to another field or leaves.",
            responses: answer.merging([
                "400": OpenAPI.response("BadRequest"), "413": OpenAPI.response("ContentTooLarge"),
                "415": OpenAPI.response("UnsupportedMediaType"), "422": OpenAPI.response("UnprocessableContent"),
            ]) { $1 },
            unsafe: true
        )
        put["requestBody"] = ["required": false, "content": OpenAPI.content(OpenAPI.schema("PresenceField"))]
        return [
            "get": .object(
                OpenAPIViewPaths.operation(
                    "presence\(route.name)", of: route, summary: "Who is here: \(route.title)",
                    description: "Who else is on this screen, and in which field.", responses: answer
                )),
            "put": .object(put),
            "delete": .object(
                OpenAPIViewPaths.operation(
                    "leave\(route.name)", of: route, summary: "I left: \(route.title)",
                    description: "Says this session left the screen; the others hear of it at once.", responses: answer,
                    unsafe: true
                )),
        ]
    }

    /// The shared schemas these paths use.
    static let schemas: [String: JSONValue] = {
        // Offsets and revisions are read as non-negative 64-bit integers.
        let count = OpenAPIParameters.version
        let ops: JSONValue = [
            "type": "array", "maxItems": 1000,
            "items": [
                "oneOf": [
                    OpenAPI.object(["p": count, "si": OpenAPI.string]),
                    OpenAPI.object(["p": count, "sd": OpenAPI.string]),
                ]
            ],
        ]
        let edit = OpenAPI.object(["id": ["type": ["string", "null"]], "revision": ["type": "integer"], "ops": ops])
        let collaborator = OpenAPI.object([
            "id": OpenAPI.string, "name": OpenAPI.string, "colour": OpenAPI.string, "field": ["type": ["string", "null"]],
        ])
        return [
            "TextEdit": OpenAPI.object([
                "id": ["type": "string", "minLength": 1, "maxLength": 128], "base": count, "ops": ops,
            ]),
            "TextEditApplied": OpenAPI.object([
                "id": OpenAPI.string, "from": ["type": "integer"], "revision": ["type": "integer"], "ops": ops,
                "concurrent": ["type": "array", "items": edit],
            ]),
            "CollaborativeText": OpenAPI.object(
                [
                    "text": OpenAPI.string, "revision": ["type": "integer"], "from": ["type": "integer"],
                    "edits": OpenAPI.nullable(["type": "array", "items": edit]),
                ],
                required: ["text", "revision"]
            ),
            "PresenceField": OpenAPI.object(
                ["field": OpenAPI.nullable(["type": "string", "minLength": 1, "maxLength": 200])], required: []
            ),
            "Presence": OpenAPI.object(["you": collaborator, "others": ["type": "array", "items": collaborator]]),
        ]
    }()
}
