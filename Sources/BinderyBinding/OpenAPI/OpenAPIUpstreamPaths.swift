import BinderyRuntime

/// `/api/upstream`: the fake upstream's settings, read and changed for everyone.
enum OpenAPIUpstreamPaths {
    /// What both operations say about the settings.
    private static let about =
        "The fake upstream's latency and failure settings. They are global: a change affects every session. "
        + "These routes exist only while upstream control is on (the default; `--disable-upstream-control` "
        + "removes them from the server and from this document)."

    /// `GET` and `PATCH /api/upstream`.
    static var settings: JSONValue {
        let settings = OpenAPI.content(OpenAPI.schema("UpstreamSettings"))
        let patch = OpenAPI.schema("UpstreamSettingsPatch")
        var change = OpenAPIFixedPaths.operation(
            "patchUpstreamSettings", tag: "upstream", summary: "Change the fake upstream's settings (JSON merge patch)",
            description: about + " A refused patch changes nothing. Note: a body that is not valid JSON is a 422 here "
                + "(`field` is empty), not a 400.",
            ok: ["description": "The settings after the patch.", "content": settings],
            also: [
                "400": OpenAPI.problem("Empty body, or a path that is not valid."),
                "413": OpenAPI.response("ContentTooLarge"),
                "415": OpenAPI.response("UnsupportedMediaType"),
                "422": OpenAPI.problem(
                    "Invalid settings or invalid JSON; `field` is the dotted path of the offending setting."
                ),
            ]
        ).objectValue ?? [:]
        change["requestBody"] = [
            "required": true,
            "content": ["application/merge-patch+json": ["schema": patch], "application/json": ["schema": patch]],
        ]
        return [
            "get": OpenAPIFixedPaths.operation(
                "getUpstreamSettings", tag: "upstream", summary: "The fake upstream's settings", description: about,
                ok: ["description": "The settings.", "content": settings]
            ),
            "patch": .object(change),
        ]
    }
}
