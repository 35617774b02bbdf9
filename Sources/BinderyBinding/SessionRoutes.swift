import BinderyHTTP
import Foundation
import HTTPTypes

/// `POST /api/sessions`: creates a session and answers its token (and sets the cookie).
struct SessionRoutes: HTTPResponder {
    let store: SessionStore

    func respond(to request: Request) async throws -> Response {
        let session: Session
        do {
            session = try await store.create()
        } catch {
            throw Problem(error)
        }
        let body = try JSONEncoder().encode(["token": session.token])
        var response = Response.json(Array(body), status: .created, headers: [.cacheControl: "no-store"])
        response.headers.append(HTTPField(name: .setCookie, value: SessionResolver.cookie(for: session)))
        return response.logging(session)
    }
}
