import HTTPTypes

/// Something that stands in front of a group of responders (Hummingbird's `RouterMiddleware`):
/// it may answer the request itself (a refusal) or pass it on to the next responder, and may
/// change what comes back. Route groups carry their middleware, so a responder holds only its own
/// logic.
package protocol HTTPMiddleware: Sendable {
    /// The fast path (on the network thread): answers at once, or passes the request on with
    /// `next.respondImmediately(to:)`, which may itself give nil (the request then goes through
    /// ``respond(to:next:)``).
    func respondImmediately(to request: Request, next: any HTTPResponder) -> Response?
    /// Answers the request, usually by passing it on with `next.respond(to:)`.
    func respond(to request: Request, next: any HTTPResponder) async throws -> Response
}

extension HTTPMiddleware {
    /// Passes the fast path on by default.
    package func respondImmediately(to request: Request, next: any HTTPResponder) -> Response? {
        next.respondImmediately(to: request)
    }
}

/// A responder behind a middleware.
struct MiddlewareResponder: HTTPResponder {
    let middleware: any HTTPMiddleware
    let next: any HTTPResponder

    func respondImmediately(to request: Request) -> Response? {
        middleware.respondImmediately(to: request, next: next)
    }

    func respond(to request: Request) async throws -> Response {
        try await middleware.respond(to: request, next: next)
    }
}

extension Router {
    /// Registers the routes `register` adds behind `middleware` (the first runs first), as a
    /// group: the route table stays the one place where path, method, checks and responder meet.
    package mutating func group(_ middleware: [any HTTPMiddleware], _ register: (inout RouteGroup) -> Void) {
        var group = RouteGroup(middleware: middleware)
        register(&group)
        for route in group.routes { add(route.method, route.pattern, route.responder) }
    }
}

/// Routes that share middleware; see ``Router/group(_:_:)``.
package struct RouteGroup {
    fileprivate let middleware: [any HTTPMiddleware]
    fileprivate var routes: [(method: HTTPRequest.Method, pattern: String, responder: any HTTPResponder)] = []

    /// Adds `responder` for `method` on `pattern`, behind the group's middleware.
    package mutating func add(_ method: HTTPRequest.Method, _ pattern: String, _ responder: some HTTPResponder) {
        let wrapped = middleware.reversed().reduce(responder as any HTTPResponder) { next, middleware in
            MiddlewareResponder(middleware: middleware, next: next)
        }
        routes.append((method, pattern, wrapped))
    }
}
