import BinderyRuntime

/// The API paths of one view model: its snapshot (GET, and PATCH when it has inputs), its event
/// stream, its commands, its collaborative texts and its presence.
enum OpenAPIViewPaths {
    /// Every API path of `route`, keyed by its template.
    static func paths(of route: OpenAPIViewRoute, schemas: inout OpenAPISchemaRegistry) -> [String: JSONValue] {
        let base = "/api/views/\(route.pattern)"
        let snapshot = schemas.use(route.schema.snapshotShape)
        schemas.describe("\(route.schema.name)Snapshot", as: route.schema.summary)
        var item: [String: JSONValue] = ["get": read(route, snapshot: snapshot)]
        if !route.schema.inputs.isEmpty {
            item["patch"] = write(route, snapshot: snapshot, patch: schemas.use(route.schema.patchShape))
        }
        var paths: [String: JSONValue] = [
            base: .object(item), "\(base)/events": ["get": watch(route)],
            "\(base)/versions": ["get": history(route, snapshot: snapshot)],
        ]
        paths.merge(OpenAPICommandPaths.paths(of: route, under: base, snapshot: snapshot, schemas: &schemas)) { $1 }
        paths.merge(OpenAPICollaborationPaths.paths(of: route, under: base)) { $1 }
        return parameterized(paths, by: route)
    }

    /// Adds the route's path parameters to every path item.
    private static func parameterized(_ paths: [String: JSONValue], by route: OpenAPIViewRoute) -> [String: JSONValue] {
        guard !route.parameters.isEmpty else { return paths }
        let parameters: JSONValue = .array(
            route.parameters.map { parameter in
                [
                    "name": .string(parameter.name), "in": "path", "required": true,
                    "description": .string(
                        "Names one \(parameter.child.title.lowercased()) (`\(parameter.child.viewModel.name)`) of the route "
                            + "`\(parameter.child.pattern)`; a value its parent does not know in this session is 404."
                    ),
                    "schema": parameter.schema.jsonSchema(),
                ]
            })
        return paths.mapValues { item in
            guard case .object(var members) = item else { return item }
            members["parameters"] = parameters
            return .object(members)
        }
    }

    /// The operation fields every view-model operation shares. `writes` for one that changes the
    /// view model (its write rule applies, and `command`'s own); `unsafe` for a method a browser on
    /// another site could send (refused, 403).
    ///
    /// Who may call it is said three ways: the description names the rule; an operation that needs a
    /// signed-in session lists only the credentials as its security (no anonymous alternative);
    /// and a rule that may refuse a signed-in user adds 403.
    static func operation(
        _ id: String, of route: OpenAPIViewRoute, summary: String, description: String,
        parameters: [String] = [], responses: [String: JSONValue], writes: Bool = false, unsafe: Bool = false,
        command: ViewModelSchema.Command? = nil
    ) -> [String: JSONValue] {
        var access = writes ? route.readAccess.combined(with: route.schema.writeAccess) : route.readAccess
        if writes, let command { access = access.combined(with: command.executeAccess) }
        var common: [String: JSONValue] = [
            "401": OpenAPI.response("Unauthorized"), "404": OpenAPI.response("NotFound"),
            "431": OpenAPI.response("HeaderFieldsTooLarge"),
        ]
        if unsafe || !access.roles.isEmpty || access.conditional { common["403"] = OpenAPI.response("Forbidden") }
        common.merge(responses) { $1 }
        var operation: [String: JSONValue] = [
            "operationId": .string(id), "tags": [.string(route.screen)], "summary": .string(summary),
            "description": .string(description + Self.accessNote(access)),
            "security": access.signIn ? OpenAPI.signedInSecurity : OpenAPI.sessionSecurity, "responses": .object(common),
        ]
        if !parameters.isEmpty { operation["parameters"] = .array(parameters.map(OpenAPI.parameter)) }
        return operation
    }

    /// What the description says of who may call an operation: nothing when everyone may.
    static func accessNote(_ access: AccessSummary) -> String {
        guard access.signIn else { return "" }
        var who = "a signed-in session"
        if !access.roles.isEmpty { who += " with the role " + access.roles.map { "`\($0)`" }.joined(separator: " or ") }
        if access.conditional { who += ", as the view model's own rule decides" }
        return "\n\nAccess: \(who); anonymous 401 (`Sign-in required`)" + (access.roles.isEmpty && !access.conditional ? "." : ", others 403.")
    }

    /// A response carrying a snapshot (or a command's result) with its ETag.
    /// A write's answer may be a retry's stored one (`replayable`: `Idempotent-Replayed`).
    static func snapshotResponse(_ description: String, schema: JSONValue, replayable: Bool = false) -> JSONValue {
        var headers: [String: JSONValue] = ["ETag": OpenAPI.header("ETag"), "Set-Cookie": OpenAPI.header("SetCookie")]
        if replayable { headers["Idempotent-Replayed"] = OpenAPI.header("IdempotentReplayed") }
        return [
            "description": .string(description),
            "headers": .object(headers),
            "content": OpenAPI.content(schema),
        ]
    }

    /// `GET /api/views/{path}`: the snapshot, conditional or long-polled.
    private static func read(_ route: OpenAPIViewRoute, snapshot: JSONValue) -> JSONValue {
        .object(
            operation(
                "get\(route.name)", of: route, summary: "Snapshot: \(route.title)",
                description: "\(route.schema.summary)\n\nThe current snapshot, encoded once per version. With `after`, "
                    + "a long-poll: waits for a newer version.",
                parameters: ["IfNoneMatch", "After", "PreferWait"],
                responses: [
                    "200": snapshotResponse("The snapshot.", schema: snapshot),
                    "304": OpenAPI.response("NotModified"),
                    "400": OpenAPI.response("BadRequest"),
                ]
            ))
    }

    /// `PATCH /api/views/{path}`: a merge patch of inputs.
    private static func write(_ route: OpenAPIViewRoute, snapshot: JSONValue, patch: JSONValue) -> JSONValue {
        var write = operation(
            "patch\(route.name)", of: route, summary: "Write inputs: \(route.title)",
            description: "Writes inputs with a JSON merge patch, all or nothing, and answers the new snapshot. "
                + "An empty body counts as `null` and is refused (422).",
            parameters: ["IfMatch", "IdempotencyKey"],
            responses: [
                "200": snapshotResponse("The snapshot after the write.", schema: snapshot, replayable: true),
                "400": OpenAPI.response("BadRequest"),
                "409": OpenAPI.problem("The request with this `Idempotency-Key` still runs on another node (`Retry-After`)."),
                "412": OpenAPI.response("PreconditionFailed"),
                "413": OpenAPI.response("ContentTooLarge"),
                "415": OpenAPI.response("UnsupportedMediaType"),
                "422": OpenAPI.response("UnprocessableContent"),
            ],
            writes: true, unsafe: true
        )
        write["requestBody"] = [
            "required": true,
            "content": ["application/merge-patch+json": ["schema": patch], "application/json": ["schema": patch]],
        ]
        return .object(write)
    }

    /// `GET /api/views/{path}/events`: Server-Sent Events of snapshots.
    /// `GET /api/views/{path}/versions`: the versions the log keeps, for a timeline.
    private static func history(_ route: OpenAPIViewRoute, snapshot: JSONValue) -> JSONValue {
        let version = OpenAPI.object([
            "version": ["type": "integer"],
            "at": [
                "type": ["string", "null"], "format": "date-time", "examples": ["2026-12-02T06:25:14Z"],
                "description": "When it was committed, RFC 3339 in whole seconds, UTC; null when not logged.",
            ],
            "snapshot": snapshot,
        ])
        let body = OpenAPI.object([
            "path": OpenAPI.string, "version": ["type": "integer", "description": "The current version."],
            "versions": ["type": "array", "items": version, "description": "Oldest first; the current version last."],
        ])
        return .object(
            operation(
                "versions\(route.name)", of: route, summary: "Version history: \(route.title)",
                description: "The versions of this view model the store's version log still keeps (64 versions and 15 "
                    + "minutes by default), oldest first, each with its full snapshot and when it was committed; the "
                    + "current version is always the last. The inspector's timeline reads it.",
                responses: ["200": ["description": "The kept versions.", "content": OpenAPI.content(body)]]
            ))
    }

    private static func watch(_ route: OpenAPIViewRoute) -> JSONValue {
        .object(
            operation(
                "watch\(route.name)", of: route, summary: "Server-Sent Events: \(route.title)",
                description: "Opens a stream; the view model is active while it is open. Starts with `retry: 2000`, then "
                    + "one event per version (`id:` = version, `data:` = the snapshot JSON), the current one first unless "
                    + "`Last-Event-ID` already names it; `: heartbeat` comments every 15 s. With `patches=1`, a version "
                    + "that follows the one the stream sent last comes as `event: patch` whose `data:` is an RFC 6902 JSON "
                    + "Patch from that version (its first operation tests `/version`), when smaller than the snapshot. "
                    + "Named events without `id:`: `edits` (`{\"texts\": [{path, input, from, revision, edits}]}`, the ops "
                    + "of collaborative texts, just before the version showing them; `edits: null`: reload the text) and "
                    + "`presence` (`{\"others\": [...]}`, whenever who else is on the screen changes, and first when "
                    + "someone is).",
                parameters: ["LastEventID", "LastEventIdQuery", "PatchesQuery"],
                responses: [
                    "200": [
                        "description": "The stream.",
                        "headers": [
                            "Set-Cookie": OpenAPI.header("SetCookie"),
                            "X-Accel-Buffering": ["schema": ["type": "string", "const": "no"]],
                        ],
                        "content": [
                            "text/event-stream": ["schema": OpenAPI.string, "example": "retry: 2000\n\nid: 1\ndata: {...}\n\n"]
                        ],
                    ],
                    "429": OpenAPI.response("TooManyStreams"),
                    "503": OpenAPI.response("StreamsExhausted"),
                ]
            ))
    }
}
