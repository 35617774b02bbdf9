import BinderyRuntime

/// The command paths of one view model: `commands/{name}` for each command, and
/// `commands/{name}/cancel` for each deferred one (only those can be running).
enum OpenAPICommandPaths {
    /// The command paths of `route`, keyed by template.
    static func paths(
        of route: OpenAPIViewRoute, under base: String, snapshot: JSONValue, schemas: inout OpenAPISchemaRegistry
    ) -> [String: JSONValue] {
        var paths: [String: JSONValue] = [:]
        for command in route.schema.commands {
            let path = "\(base)/commands/\(command.name)"
            paths[path] = ["post": execute(command, of: route, snapshot: snapshot, schemas: &schemas)]
            if command.isDeferred {
                paths["\(path)/cancel"] = ["post": cancel(command, of: route, snapshot: snapshot)]
            }
        }
        return paths
    }

    /// `POST …/commands/{name}`.
    private static func execute(
        _ command: ViewModelSchema.Command, of route: OpenAPIViewRoute, snapshot: JSONValue,
        schemas: inout OpenAPISchemaRegistry
    ) -> JSONValue {
        let result = schemas.use(route.schema.resultShape(navigates: command.navigates, signsIn: command.signsIn))
        var responses: [String: JSONValue] = [
            "200": OpenAPIViewPaths.snapshotResponse(
                command.signsIn
                    ? "Signed in: the snapshot after it, with `token` (the session's new token, also in the cookie)."
                    : command.navigates
                        ? "The command finished: the snapshot after it, with `navigate` (the page to open)."
                        : "The command finished: the snapshot after it.",
                schema: result, replayable: !command.signsIn
            ),
            "400": OpenAPI.response("BadRequest"),
            "409": OpenAPI.response("Conflict"),
            "413": OpenAPI.response("ContentTooLarge"),
            "415": OpenAPI.response("UnsupportedMediaType"),
            "422": OpenAPI.response("UnprocessableContent"),
        ]
        if command.isDeferred {
            responses["202"] = OpenAPIViewPaths.snapshotResponse(
                "Still running after the `Prefer: wait` (default: no wait); it finishes in the background. The "
                    + "snapshot shows it executing; its end shows in later snapshots and events.",
                schema: snapshot, replayable: true
            )
            responses["500"] = OpenAPI.response("InternalError")
            responses["502"] = OpenAPI.response("BadGateway")
        }
        if case .queue = command.policy {
            responses["429"] = OpenAPI.response("QueueFull")
        }
        if command.signsIn {
            // Answered once done (never 202); wrong credentials 422, too many failures 429.
            responses["202"] = nil
            responses["422"] = OpenAPI.response("SignInFailed")
            responses["429"] = OpenAPI.response("TooManySignIns")
        }
        var operation = OpenAPIViewPaths.operation(
            command.name + route.name, of: route, summary: "\(command.name): \(command.summary)",
            description: description(of: command), parameters: command.isDeferred ? ["PreferWait", "IdempotencyKey"] : ["IdempotencyKey"],
            responses: responses, writes: true, unsafe: true, command: command
        )
        if let argument = command.argument {
            operation["requestBody"] = ["required": true, "content": OpenAPI.content(schemas.use(argument))]
        }
        return .object(operation)
    }

    /// `POST …/commands/{name}/cancel`.
    private static func cancel(_ command: ViewModelSchema.Command, of route: OpenAPIViewRoute, snapshot: JSONValue) -> JSONValue {
        .object(
            OpenAPIViewPaths.operation(
                "cancel" + OpenAPI.capitalized(command.name) + route.name, of: route, summary: "Cancel \(command.name)",
                description: "Cancels the running execution of `\(command.name)` and answers once its work has really "
                    + "stopped: `executing` is false and the view model is as it was before that execution. A request "
                    + "still waiting for it (`Prefer: wait`) gets 409 `Command cancelled`.",
                responses: [
                    "200": OpenAPIViewPaths.snapshotResponse("The snapshot after the cancellation.", schema: snapshot),
                    "400": OpenAPI.response("BadRequest"),
                    "409": OpenAPI.problem("No execution of the command is running (`Command not running`)."),
                    "413": OpenAPI.response("ContentTooLarge"),
                    "415": OpenAPI.response("UnsupportedMediaType"),
                ],
                writes: true, unsafe: true, command: command
            ))
    }

    /// What a command takes, how its executions overlap and how it answers.
    private static func description(of command: ViewModelSchema.Command) -> String {
        var lines = [
            command.argument == nil
                ? "Takes no argument: send no body (or `null` / `{}`); anything else is 422."
                : "Takes the JSON object below; a body that does not match it is 422."
        ]
        switch command.policy {
        case .serial:
            lines.append("Policy `serial`: executing it again while it runs is 409.")
        case .concurrent:
            lines.append("Policy `concurrent`: executions run side by side.")
        case .cancelPrevious:
            lines.append(
                "Policy `cancelPrevious`: a new execution cancels the running one (a request waiting for that one "
                    + "gets 409 `Command cancelled`); only the last one's result stays."
            )
        case .queue(let limit):
            lines.append(
                "Policy `queue`: executions run one after another in order; at most \(limit) may wait, more are 429."
            )
        }
        if command.signsIn {
            lines.append(
                "It signs the session in with the credentials the view model holds and is answered once done, whatever "
                    + "`Prefer: wait` says: the answer carries the session's new token (`token`, and the cookie); the old "
                    + "token is refused from then on. Wrong credentials are 422, too many failures 429 with `Retry-After`, "
                    + "a verifier that cannot check them 502; nothing changes then."
            )
        } else if command.isDeferred {
            lines.append(
                "Its work awaits: it answers 202 unless `Prefer: wait=S` covers it, and `POST …/commands/"
                    + "\(command.name)/cancel` stops it."
            )
        }
        return lines.joined(separator: " ")
    }
}
