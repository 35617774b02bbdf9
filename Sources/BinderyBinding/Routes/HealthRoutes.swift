import BinderyHTTP

/// `/healthz` (the process answers) and `/readyz` (the server accepts work).
struct HealthRoutes: HTTPResponder {
    let ready: @Sendable () -> Bool

    func respondImmediately(to request: Request) -> Response? {
        if request.path == "/readyz", !ready() {
            return Problem(
                status: .serviceUnavailable, detail: "The server is shutting down or cannot reach its store.",
                headers: [.retryAfter: "2"]
            ).response
        }
        return .json(Self.ok, headers: [.cacheControl: "no-store"])
    }

    private static let ok = Array(#"{"status":"ok"}"#.utf8)

    func respond(to request: Request) async throws -> Response {
        respondImmediately(to: request) ?? Response(status: .internalServerError)
    }
}
