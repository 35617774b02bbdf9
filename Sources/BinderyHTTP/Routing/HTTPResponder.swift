/// Something that answers requests. The server first asks `respondImmediately(to:)` on its
/// network thread (no task hop: for cached bytes); when that gives nil it suspends the
/// connection and runs `respond(to:)` in a task.
public protocol HTTPResponder: Sendable {
    /// A response that is ready without waiting, or nil to go through `respond(to:)`.
    /// Runs on a libmicrohttpd thread: it must not block.
    func respondImmediately(to request: Request) -> Response?
    /// The response to a request; a thrown error becomes a problem response.
    func respond(to request: Request) async throws -> Response
}

extension HTTPResponder {
    /// By default nothing is immediate.
    public func respondImmediately(to request: Request) -> Response? { nil }
}
