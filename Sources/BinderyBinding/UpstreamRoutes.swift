import BinderyHTTP
import BinderyRuntime
import BinderyUpstream
import Foundation
import HTTPTypes

/// `/api/upstream`: read and change the fake upstream's latency and failure settings.
///
/// The settings are global: a change affects every session. The routes exist only when the
/// server runs with the upstream control enabled (the default in local mode).
struct UpstreamSettingsRoutes: HTTPResponder {
    let upstream: UpstreamProvider

    func respond(to request: Request) async throws -> Response {
        if request.method == .patch {
            // Global settings, no credential: a page of another site must not change them.
            if let problem = CrossSiteCheck.problem(for: request) { throw problem }
            guard !request.body.isEmpty else {
                throw Problem(status: .badRequest, title: "Empty patch", detail: "Send a JSON merge patch of the settings.")
            }
            try JSONBody.refuseDuplicateMembers(request.body)
            do {
                _ = try upstream.update(patch: Data(request.body))
            } catch {
                throw Problem(
                    status: .unprocessableContent, title: "Invalid upstream settings",
                    detail: "'\(error.path)': \(error.message)", extensions: ["field": error.path]
                )
            }
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return .json(Array(try encoder.encode(upstream.settings)), headers: [.cacheControl: "no-store"])
    }
}

/// `/upstream/images/{name}`: the upstream's generated images at stable URLs.
struct UpstreamImageRoutes: HTTPResponder {
    let upstream: UpstreamProvider

    func respondImmediately(to request: Request) -> Response? {
        guard let name = request.parameter("name"), let image = upstream.image(named: name) else {
            return Problem(status: .notFound, title: "No such image", detail: "The upstream has no image here.").response
        }
        return Response(
            status: .ok,
            headers: [.contentType: image.contentType, .cacheControl: "public, max-age=86400"],
            body: .bytes(Array(image.data))
        )
    }

    func respond(to request: Request) async throws -> Response {
        respondImmediately(to: request) ?? Response(status: .notFound)
    }
}
