import Bindery
import BinderyUpstream
import Foundation

/// `/api/upstream`: read and change the fake upstream's latency and failure settings.
///
/// The settings are global: a change affects every session, so only administrators may make one
/// (`changedBy`, the seed apps' default). The routes exist only when the server runs with the
/// upstream control enabled (the default on loopback). A page of another site cannot change them:
/// the server refuses cross-site writes to every app route.
struct UpstreamSettingsRoutes: HTTPResponder {
    let upstream: UpstreamProvider

    /// `GET` and `PATCH /api/upstream`, with their OpenAPI operations; `PATCH` for the users
    /// `changedBy` lets.
    static func routes(upstream: UpstreamProvider, changedBy: Access<Request>) -> [Route] {
        let responder = UpstreamSettingsRoutes(upstream: upstream)
        return [
            Route(.get, "/api/upstream", operation: UpstreamOpenAPI.getSettings, responder: responder),
            Route(.patch, "/api/upstream", operation: UpstreamOpenAPI.patchSettings, access: changedBy, responder: responder),
        ]
    }

    func respond(to request: Request) async throws -> Response {
        if request.method == .patch {
            guard !request.body.isEmpty else {
                throw Problem(status: .badRequest, title: "Empty patch", detail: "Send a JSON merge patch of the settings.")
            }
            do {
                _ = try JSONValue(parsing: request.body)
            } catch {
                switch error {
                case .duplicateMember(let name):
                    throw Problem(
                        status: .badRequest, title: "Duplicate member",
                        detail: "The member '\(name.prefix(100))' appears twice in one object of the request body."
                    )
                case .malformed where request.body.contains(0):
                    throw Problem(status: .badRequest, title: "Malformed JSON", detail: "The request body is not UTF-8 JSON.")
                case .malformed:
                    // Not JSON: the settings' own decoder says so below (422, `field` empty).
                    break
                }
            }
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

    /// `GET /upstream/images/{name}`, with its OpenAPI operation.
    static func route(upstream: UpstreamProvider) -> Route {
        Route(.get, "/upstream/images/{name}", operation: UpstreamOpenAPI.image, responder: UpstreamImageRoutes(upstream: upstream))
    }

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
