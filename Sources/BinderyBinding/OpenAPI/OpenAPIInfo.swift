import BinderyRuntime

/// The document's `info` and `tags`.
enum OpenAPIInfo {
    /// Title, version and the contract every route shares.
    static let info: JSONValue = [
        "title": "Bindery",
        "version": "0.1.0",
        "summary": "MVVM view models served over HTTP.",
        "description": .string(
            "Each session owns a live graph of view models. A view model's snapshot is `{path, version, inputs, "
                + "outputs, commands, active}`: outputs are derived, inputs are written with PATCH (JSON merge patch), "
                + "commands are POSTed, and every change is pushed as Server-Sent Events. Each command's state shows "
                + "`enabled`, `executing`, its last `error` and its concurrency `policy` (`serial`, `concurrent`, "
                + "`cancelPrevious`, `queue`); a deferred command can be cancelled with `POST …/cancel`.\n\n"
                + "**Sessions.** Created on first use: a request without credentials gets a new session and a "
                + "`bindery_session` cookie (HttpOnly, SameSite=Strict). Scripts send `Authorization: Bearer <token>` "
                + "(from POST /api/sessions); an unknown bearer token is 401, an unknown cookie gets a fresh session. "
                + "Sessions expire after 30 idle minutes; at most 10 000 live (least recently used closed first).\n\n"
                + "**Users.** When the app signs people in, POST /api/session/sign-in signs the session in and gives it a "
                + "new token (the old one is refused from then on); a view model, input or command may need a signed-in "
                + "session (401 `Sign-in required` for an anonymous one) or a role (403 `Not allowed`); an operation's "
                + "description says when. Another user's records are not found (404).\n\n"
                + "**Versions.** A snapshot's `version` is its ETag (`\"7\"`); `If-None-Match` gives 304. A PATCH with "
                + "`If-Match` naming an older version is merged when none of the inputs it writes changed since, else "
                + "refused with 412 naming them (`fields`). Long-poll with `?after=N` and `Prefer: wait=S`.\n\n"
                + "**Errors** are `application/problem+json` (RFC 9457) with a `detail`. Every route also answers: "
                + "400 for a path that is not valid percent-encoded UTF-8, 405 with `Allow` for a method it does not "
                + "take, 413 for a body over the limit (1 MiB), 415 for a POST/PUT/PATCH body that is not JSON, 431 "
                + "(HTML, from libmicrohttpd) for oversized headers and 503 while shutting down. HEAD is answered "
                + "wherever GET is.\n\nThis document is generated from the view models' declarations."
        ),
    ]

    /// One tag per screen (its operations and its child routes'), the app's own, then the fixed
    /// groups.
    static func tags(for screens: [Screen], adding own: [JSONValue], servesClient: Bool) -> JSONValue {
        var tags: [JSONValue] = [["name": "sessions"], ["name": "views", "description": "The screen catalogue."]]
        tags += screens.map { ["name": .string($0.name), "description": .string($0.schema.summary)] }
        tags += own
        tags.append(["name": "operations"])
        if servesClient {
            tags.append(["name": "client", "description": "The thin browser client: its pages, one per screen."])
        }
        return .array(tags)
    }
}
