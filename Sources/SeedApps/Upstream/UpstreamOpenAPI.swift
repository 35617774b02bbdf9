import Bindery
import BinderyUpstream

/// The OpenAPI text of the upstream's routes: `/api/upstream` (its settings, read and changed for
/// everyone) and `/upstream/images/{name}`, and the settings' schemas.
enum UpstreamOpenAPI {
    /// What both settings operations say about the settings.
    private static let about =
        "The fake upstream's latency and failure settings. They are global: a change affects every session. "
        + "These routes exist only while upstream control is on (the default; `--disable-upstream-control` "
        + "removes them from the server and from this document)."

    /// `GET /api/upstream`.
    static var getSettings: JSONValue {
        OpenAPI.operation(
            "getUpstreamSettings", tag: "upstream", summary: "The fake upstream's settings", description: about,
            ok: ["description": "The settings.", "content": OpenAPI.content(OpenAPI.schema("UpstreamSettings"))]
        )
    }

    /// `PATCH /api/upstream`.
    static var patchSettings: JSONValue {
        let patch = OpenAPI.schema("UpstreamSettingsPatch")
        var change =
            OpenAPI.operation(
                "patchUpstreamSettings", tag: "upstream", summary: "Change the fake upstream's settings (JSON merge patch)",
                description: about + " A refused patch changes nothing. Note: a body that is not valid JSON is a 422 here "
                    + "(`field` is empty), not a 400.",
                ok: ["description": "The settings after the patch.", "content": OpenAPI.content(OpenAPI.schema("UpstreamSettings"))],
                also: [
                    "400": OpenAPI.problem("Empty body, or a path that is not valid."),
                    "403": OpenAPI.problem("A browser's request from another site."),
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
        return .object(change)
    }

    /// `GET /upstream/images/{name}`.
    static var image: JSONValue {
        var image =
            OpenAPI.operation(
                "getUpstreamImage", tag: "upstream", summary: "An image of the fake upstream",
                description: "Front images of spots and hotels, photo thumbnails and full-size photos, generated as SVG.",
                ok: [
                    "description": "The image (cacheable for a day).",
                    "headers": ["Cache-Control": ["schema": ["type": "string", "const": "public, max-age=86400"]]],
                    "content": OpenAPI.content(OpenAPI.string, as: "image/svg+xml"),
                ],
                also: ["400": OpenAPI.response("BadRequest"), "404": OpenAPI.response("NotFound")]
            ).objectValue ?? [:]
        image["parameters"] = [
            [
                "name": "name", "in": "path", "required": true,
                "description": "The image's name, with or without `.svg`: letters, digits, `-`, `_`, `.`; no leading dot, no `..`.",
                "schema": ["type": "string", "maxLength": 132],
                "examples": ["thumbnail": ["value": "photo-p01-thumb.svg"], "front": ["value": "scenic-gugong.svg"]],
            ]
        ]
        return .object(image)
    }
}
