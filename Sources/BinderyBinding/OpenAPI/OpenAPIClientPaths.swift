import BinderyRuntime

/// The thin client's URLs: `/`, one page per screen and child route, and the static files.
/// Present unless the server runs without its client.
enum OpenAPIClientPaths {
    /// What every page says about where it comes from.
    private static let present = "Present unless the server runs without its thin client (`--no-client`)."

    /// The client's paths for `routes`.
    static func paths(for routes: [OpenAPIViewRoute]) -> [String: JSONValue] {
        var paths: [String: JSONValue] = [
            "/": [
                "get": file(
                    "client", summary: "The thin browser client (`index.html`)", description: present,
                    ok: html
                )
            ],
            "/{file}": ["get": staticFile],
        ]
        for route in routes {
            var item: [String: JSONValue] = [
                "get": file(
                    "page\(route.name)", summary: "A page of the thin client: \(route.title)",
                    description: "The client's `index.html`, which routes itself to this screen (every URL under a screen "
                        + "serves it, so pages are shareable). " + present,
                    ok: html
                )
            ]
            if !route.parameters.isEmpty {
                item["parameters"] = .array(
                    route.parameters.map { parameter in
                        [
                            "name": .string(parameter.name), "in": "path", "required": true,
                            "description": .string(
                                "Any segment: the page is served for every URL under a screen; the client shows the view "
                                    + "model's own answer (404 from the API for a `\(parameter.name)` it does not know)."
                            ),
                            "schema": OpenAPI.string,
                        ]
                    })
            }
            paths["/\(route.pattern)"] = .object(item)
        }
        return paths
    }

    /// `index.html` with its weak ETag.
    private static let html: JSONValue = [
        "description": "`index.html`.",
        "headers": ["ETag": ["description": "Weak: `W/\"<size>-<mtime>\"`.", "schema": OpenAPI.string]],
        "content": OpenAPI.content(OpenAPI.string, as: "text/html"),
    ]

    /// `GET /{file}`: any file of the public directory.
    private static var staticFile: JSONValue {
        guard
            case .object(var operation) = file(
                "staticFile", summary: "A file of the thin client",
                description: "Any file of the client or the app's public directory; real paths may have several segments (`/js/app.js`), "
                    + "which OpenAPI templates cannot express. The content type follows the extension. " + present,
                ok: [
                    "description": "The file.",
                    "headers": ["ETag": ["schema": OpenAPI.string]],
                    "content": OpenAPI.content(OpenAPI.string, as: "*/*"),
                ],
                also: ["400": OpenAPI.response("BadRequest")]
            )
        else { return [:] }
        operation["parameters"] = [
            [
                "name": "file", "in": "path", "required": true, "schema": OpenAPI.string,
                "examples": ["index": ["value": "index.html"]],
            ]
        ]
        return .object(operation)
    }

    /// A file operation: 200, 304 for a matching `If-None-Match`, 404 and 431.
    private static func file(
        _ id: String, summary: String, description: String, ok: JSONValue, also: [String: JSONValue] = [:]
    ) -> JSONValue {
        OpenAPIFixedPaths.operation(
            id, tag: "client", summary: summary, description: description, ok: ok,
            also: [
                "304": ["description": "`If-None-Match` names the file's current ETag."],
                "404": OpenAPI.response("NotFound"),
            ].merging(also) { $1 }
        )
    }
}
