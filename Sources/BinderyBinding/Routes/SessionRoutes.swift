import BinderyHTTP
import BinderyRuntime
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

/// `PUT /api/session`: makes sure the client has a session, once, before the requests that need
/// one: the session its cookie or bearer token names (200), or a new one with its cookie (201).
/// Reading a screen needs none (the server keeps nothing for such a read), so a page that will
/// write or watch says so first, and its parallel requests then share one session instead of
/// each creating its own.
/// The answer says who the session is signed in as (`user`, null while anonymous).
struct SessionEnsureRoute: HTTPResponder {
    let resolver: SessionResolver

    func respond(to request: Request) async throws -> Response {
        let (session, setCookie) = try await resolver.session(for: request)
        let body: JSONValue = ["created": .bool(setCookie != nil), "user": session.user?.json ?? .null]
        var response = Response.json(JSONWriter.bytes(of: body), status: setCookie == nil ? .ok : .created, headers: [.cacheControl: "no-store"])
        if let setCookie { response.headers.append(HTTPField(name: .setCookie, value: setCookie)) }
        return response.logging(session)
    }
}

/// `GET /api/session`: who the request's session is — `{"user": {...}|null, "collaborator":
/// {...}|null}` — without making one (no session: both null). An unknown bearer token is 401.
struct SessionInfoRoute: HTTPResponder {
    let resolver: SessionResolver

    func respond(to request: Request) async throws -> Response {
        let session = try await resolver.existingSession(for: request)
        let collaborator = session.map { session -> JSONValue in
            let you = session.collaborator
            return ["id": .string(you.id), "name": .string(you.name), "colour": .string(you.colour)]
        }
        let body: JSONValue = ["user": session?.user?.json ?? .null, "collaborator": collaborator ?? .null]
        let response = Response.json(JSONWriter.bytes(of: body), headers: [.cacheControl: "no-store"])
        return session.map { response.logging($0) } ?? response
    }
}
