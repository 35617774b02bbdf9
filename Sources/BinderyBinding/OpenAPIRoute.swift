import BinderyHTTP
import Foundation

/// `GET /openapi.json`: the OpenAPI 3.1 document of every route, shipped as a resource.
struct OpenAPIRoute: HTTPResponder {
    private let document: [UInt8]

    /// Loads the document once.
    init() {
        let url = Bundle.module.url(forResource: "openapi", withExtension: "json")
        document = url.flatMap { try? Data(contentsOf: $0) }.map { [UInt8]($0) } ?? []
    }

    func respondImmediately(to request: Request) -> Response? {
        guard !document.isEmpty else {
            return Problem(status: .internalServerError, detail: "The OpenAPI document is missing from this build.").response
        }
        return .json(document, headers: [.cacheControl: "no-cache"])
    }

    func respond(to request: Request) async throws -> Response {
        respondImmediately(to: request) ?? Response(status: .internalServerError)
    }
}
