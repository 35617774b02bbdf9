import BinderyHTTP
import BinderyRuntime
import HTTPTypes

/// An HTTP route of an app's own, next to its view models: a settings endpoint, an image, a
/// webhook. Registered once with its OpenAPI operation, which the server's document lists.
///
/// ```swift
/// Route(.get, "/api/hello", operation: OpenAPI.operation("hello", tag: "demo", summary: "Greets",
///                                                        ok: ["description": "A greeting."])) { _ in
///     .json(Array(#"{"hello":"world"}"#.utf8))
/// }
/// ```
public struct Route: Sendable {
    /// The method it answers.
    public let method: HTTPRequest.Method
    /// The path pattern: literal segments, `{name}` captures one, a last `{name...}` the rest.
    public let path: String
    /// The OpenAPI operation object the document lists for it; nil leaves it out.
    public let operation: JSONValue?
    /// Who may call it: a request from anyone else is refused (401 when its session is not signed
    /// in, else 403) before the route runs. The route sees its caller's session as
    /// `Viewer.current` (none when the caller has none).
    public let access: Access<Request>
    let responder: any HTTPResponder

    /// A route answered by `responder`, for the callers `access` lets (everyone by default).
    public init(
        _ method: HTTPRequest.Method, _ path: String, operation: JSONValue? = nil, access: Access<Request> = .everyone,
        responder: some HTTPResponder
    ) {
        self.method = method
        self.path = path
        self.operation = operation
        self.access = access
        self.responder = responder
    }

    /// A route answered by `handle`; a thrown `Problem` is answered as such, anything else is a
    /// 500 that says nothing of its cause.
    ///
    /// ```swift
    /// Route(.delete, "/api/cache", access: .role("admin")) { _ in Response(status: .noContent) }
    /// ```
    public init(
        _ method: HTTPRequest.Method, _ path: String, operation: JSONValue? = nil, access: Access<Request> = .everyone,
        handle: @escaping @Sendable (Request) async throws -> Response
    ) {
        self.init(method, path, operation: operation, access: access, responder: HandlerResponder(handle: handle))
    }
}

/// A route of an app's own, run for its caller: the caller's session (never made here) decides
/// its ``Route/access`` rule, and the route runs with its viewer as `Viewer.current`. A route
/// anyone may call also answers on the fast path (without its viewer, as a static image does);
/// there, an unknown token reads as anonymous.
struct RouteAccessCheck: HTTPResponder {
    let access: Access<Request>
    let resolver: SessionResolver
    let next: any HTTPResponder

    func respondImmediately(to request: Request) -> Response? {
        access.isEveryone ? next.respondImmediately(to: request) : nil
    }

    func respond(to request: Request) async throws -> Response {
        let session: Session?
        if access.isEveryone {
            session = (try? await resolver.existingSession(for: request)) ?? nil
        } else {
            session = try await resolver.existingSession(for: request)
            do {
                try access.decision(for: session?.user, request).enforce("you may not \(request.method.rawValue) \(request.path)")
            } catch {
                throw Problem(error)
            }
        }
        guard let session else { return try await next.respond(to: request) }
        return try await Viewer.$current.withValue(session.viewer) { try await next.respond(to: request) }
    }
}

/// A closure as a responder.
private struct HandlerResponder: HTTPResponder {
    let handle: @Sendable (Request) async throws -> Response

    func respond(to request: Request) async throws -> Response {
        try await handle(request)
    }
}
