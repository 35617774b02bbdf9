/// A responder made of closures, used by the `Router` conveniences.
struct ClosureResponder: HTTPResponder {
    let immediate: (@Sendable (Request) -> Response?)?
    let handler: @Sendable (Request) async throws -> Response

    func respondImmediately(to request: Request) -> Response? {
        immediate?(request)
    }

    func respond(to request: Request) async throws -> Response {
        try await handler(request)
    }
}
