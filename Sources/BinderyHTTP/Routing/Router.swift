import HTTPTypes

/// Routes requests by method and path pattern to responders.
///
/// Patterns are literal segments, `{name}` (one segment) and a trailing `{name...}` (the rest
/// of the path, slashes included); captures land in `Request.parameters`, percent-decoded.
/// An unknown path answers a 404 problem; a known path with another method a 405 problem with
/// `Allow`; HEAD is answered by the GET responder when no HEAD route exists (the server sends
/// no body for HEAD). Thrown errors become problems (`ProblemConvertible`, else 500).
package struct Router: HTTPResponder {
    private struct Route: Sendable {
        let pattern: RoutePattern
        var responders: [HTTPRequest.Method: any HTTPResponder]
    }

    private var routes: [Route] = []
    /// For each literal first segment, the indices of the routes that can match a path starting
    /// with it, in registration order (those starting with that literal, and those starting with a
    /// parameter); ``otherRoutes`` for any other first segment. Most requests try one or two
    /// patterns instead of every route.
    private var routesByFirstSegment: [String: [Int]] = [:]
    private var otherRoutes: [Int] = []

    /// An empty router: everything is 404.
    package init() {}

    /// Registers `responder` for `method` on `pattern`; a later registration of the same pair wins.
    package mutating func add(_ method: HTTPRequest.Method, _ pattern: String, _ responder: some HTTPResponder) {
        let parsed = RoutePattern(pattern)
        if let index = routes.firstIndex(where: { $0.pattern == parsed }) {
            routes[index].responders[method] = responder
        } else {
            routes.append(Route(pattern: parsed, responders: [method: responder]))
            indexRoutes()
        }
    }

    private mutating func indexRoutes() {
        let literals = Set(routes.compactMap(\.pattern.firstLiteral))
        routesByFirstSegment = Dictionary(
            uniqueKeysWithValues: literals.map { literal in
                (literal, routes.indices.filter { (routes[$0].pattern.firstLiteral ?? literal) == literal })
            })
        otherRoutes = routes.indices.filter { routes[$0].pattern.firstLiteral == nil }
    }

    /// Registers an async handler closure for `method` on `pattern`.
    package mutating func add(
        _ method: HTTPRequest.Method, _ pattern: String,
        handler: @escaping @Sendable (Request) async throws -> Response
    ) {
        add(method, pattern, ClosureResponder(immediate: nil, handler: handler))
    }

    /// Registers a handler with a fast path: `immediate` runs on the network thread and may
    /// answer at once (nil falls through to `handler`).
    package mutating func add(
        _ method: HTTPRequest.Method, _ pattern: String,
        immediate: @escaping @Sendable (Request) -> Response?,
        handler: @escaping @Sendable (Request) async throws -> Response
    ) {
        add(method, pattern, ClosureResponder(immediate: immediate, handler: handler))
    }

    /// Answers at once for 404/405 and for routes whose responder answers immediately.
    package func respondImmediately(to request: Request) -> Response? {
        switch resolve(request) {
        case .problem(let problem):
            return problem.status == .noContent ? Response(status: .noContent, headers: problem.headers) : problem.response
        case .found(let responder, let routed, let pattern):
            return responder.respondImmediately(to: routed)?.routed(pattern)
        }
    }

    /// Routes the request and runs the responder; thrown errors become problem responses.
    package func respond(to request: Request) async throws -> Response {
        switch resolve(request) {
        case .problem(let problem):
            return problem.response
        case .found(let responder, let routed, let pattern):
            do {
                return try await responder.respond(to: routed).routed(pattern)
            } catch {
                return Problem.from(error).response.routed(pattern)
            }
        }
    }

    private enum Resolution {
        case found(any HTTPResponder, Request, String)
        case problem(Problem)
    }

    private func resolve(_ request: Request) -> Resolution {
        guard let segments = PercentDecoding.segments(ofRawPath: request.rawPath) else {
            return .problem(Problem(status: .badRequest, detail: "The request path is not valid percent-encoded UTF-8."))
        }
        // The first route whose pattern matches decides: register specific patterns first.
        let candidates = segments.first.flatMap { routesByFirstSegment[$0] } ?? otherRoutes
        guard let found = candidates.first(where: { routes[$0].pattern.matches(segments) }),
            case let route = routes[found], let captures = route.pattern.match(segments)
        else {
            return .problem(Problem(status: .notFound, detail: "No resource at \(request.path)."))
        }
        if let responder = route.responders[request.method]
            ?? (request.method == .head ? route.responders[.get] : nil)
        {
            var routed = request
            routed.captures = captures
            return .found(responder, routed, route.pattern.text)
        }
        var allowed: Set<String> = []
        for method in route.responders.keys {
            allowed.insert(method.rawValue)
            if method == .get { allowed.insert("HEAD") }
        }
        let allow = allowed.sorted().joined(separator: ", ")
        if request.method == .options {
            return .problem(Problem(status: .noContent, headers: [.allow: allow]))
        }
        return .problem(
            Problem(
                status: .methodNotAllowed,
                detail: "\(request.method.rawValue) is not allowed here; use \(allow).",
                headers: [.allow: allow]
            ))
    }
}

extension Response {
    /// Names the route that answered in the log line and metrics (`http.route`), unless the
    /// responder already named a finer one.
    func routed(_ pattern: String) -> Response {
        guard route == nil, logMetadata.isEmpty || logMetadata["http.route"] == nil else { return self }
        var response = self
        response.route = pattern
        return response
    }
}
