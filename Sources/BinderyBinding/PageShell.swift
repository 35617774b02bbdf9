import BinderyHTTP

/// Serves the thin client's `index.html` for page URLs such as `/form` or `/gallery/photos/3`,
/// so every screen has a shareable URL the client routes itself.
struct PageShell: HTTPResponder {
    let files: StaticFiles

    func respondImmediately(to request: Request) -> Response? {
        files.respondImmediately(to: indexRequest(request))
    }

    func respond(to request: Request) async throws -> Response {
        try await files.respond(to: indexRequest(request))
    }

    private func indexRequest(_ request: Request) -> Request {
        var index = request
        index.path = "/"
        index.rawPath = "/"
        index.parameters = [:]
        return index
    }
}
