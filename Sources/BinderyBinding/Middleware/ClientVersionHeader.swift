import BinderyHTTP
import HTTPTypes

/// Tells every answer of the API which client the server serves, refusals included:
/// `Bindery-Client: <fingerprint>` (``ClientVersion``). A page made from other files learns of a
/// deploy with its next request, whatever it is (`js/deploy.js`).
struct ClientVersionHeader: HTTPMiddleware {
    let version: ClientVersion

    func respondImmediately(to request: Request, next: any HTTPResponder) -> Response? {
        next.respondImmediately(to: request).map(told)
    }

    func respond(to request: Request, next: any HTTPResponder) async throws -> Response {
        do {
            return told(try await next.respond(to: request))
        } catch {
            return told(Problem.from(error).response)
        }
    }

    private func told(_ response: Response) -> Response {
        var response = response
        response.headers[.binderyClient] = version.current
        return response
    }
}

extension HTTPField.Name {
    /// `Bindery-Client`: the fingerprint of the client the server serves (``ClientVersion``).
    static let binderyClient = HTTPField.Name("Bindery-Client")!
}
