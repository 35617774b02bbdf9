import BinderyHTTP

/// `GET /openapi.json`: the OpenAPI 3.1 document of every route, generated once at start-up.
struct OpenAPIRoute: HTTPResponder {
    private let document: [UInt8]

    /// Serves `document`, encoded once.
    init(document: [UInt8]) {
        self.document = document
    }

    func respondImmediately(to request: Request) -> Response? {
        .json(document, headers: [.cacheControl: "no-cache"])
    }

    func respond(to request: Request) async throws -> Response {
        .json(document, headers: [.cacheControl: "no-cache"])
    }
}
