import BinderyHTTP
import Foundation
import HTTPTypes

/// `POST /api/sessions`: creates a session and answers its token (and sets the cookie; its route
/// group's ``CrossSiteCheck`` keeps another site from planting one).
struct SessionRoutes: HTTPResponder {
    let store: SessionRegistry
    /// Decides the client's address and whether its cookie is `Secure`.
    let resolver: SessionResolver

    func respond(to request: Request) async throws -> Response {
        let session: Session
        do {
            session = try await store.create(
                from: ClientAddress.of(request, trustingForwardedFor: resolver.trustForwardedFor)
            )
        } catch {
            throw Problem(error)
        }
        let body = try JSONEncoder().encode(["token": session.token])
        var response = Response.json(Array(body), status: .created, headers: [.cacheControl: "no-store"])
        response.headers.append(HTTPField(name: .setCookie, value: SessionResolver.cookie(for: session, secure: resolver.isSecure(request))))
        return response.logging(session)
    }
}
