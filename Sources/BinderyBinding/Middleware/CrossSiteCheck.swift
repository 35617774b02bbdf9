import BinderyHTTP
import HTTPTypes

/// Refuses writes a browser sends on behalf of another site (cross-site request forgery): the
/// middleware of every route group that takes writes (sessions, view models, an app's routes).
///
/// A cookie is ambient: the browser attaches it whatever page made the request, so an unsafe
/// request that relies on it (or on no credential at all) must come from our own pages. Browsers
/// say where a request comes from in `Sec-Fetch-Site` and `Origin`; a request that says it comes
/// from elsewhere gets a 403 problem and changes nothing. Bearer tokens are not ambient (a page
/// on another site cannot read them), so requests carrying one are not checked. A client that
/// sends neither header (curl, scripts) is not a browser acting for another site and passes.
struct CrossSiteCheck: HTTPMiddleware {
    func respond(to request: Request, next: any HTTPResponder) async throws -> Response {
        if SessionResolver.bearerToken(in: request.headers.value(.authorization) ?? "") == nil,
            let problem = Self.problem(for: request)
        {
            return problem.response
        }
        return try await next.respond(to: request)
    }

    /// Methods that change state.
    static let unsafeMethods: Set<HTTPRequest.Method> = [.post, .put, .patch, .delete]

    /// The problem to answer when `request` is an unsafe request from another site; nil when it
    /// may go on.
    static func problem(for request: Request) -> Problem? {
        guard unsafeMethods.contains(request.method) else { return nil }
        if let site = request.headers[.secFetchSite]?.lowercased(), site != "same-origin", site != "none" {
            return refusal("Sec-Fetch-Site is \(site)")
        }
        if let origin = request.headers[.origin], !isSameOrigin(origin, as: request) {
            return refusal("its Origin \(origin.prefix(100)) is not this server")
        }
        return nil
    }

    /// Whether `origin` (`scheme://host[:port]`) names the host the request was sent to.
    static func isSameOrigin(_ origin: String, as request: Request) -> Bool {
        guard let host = request.headers[.hostField]?.lowercased(), let separator = origin.range(of: "://") else {
            return false
        }
        let authority = origin[separator.upperBound...].lowercased()
        let scheme = origin[..<separator.lowerBound].lowercased()
        guard scheme == "http" || scheme == "https" else { return false }
        let defaultPort = scheme == "https" ? ":443" : ":80"
        return authority == host || authority + defaultPort == host || authority == host + defaultPort
    }

    private static func refusal(_ reason: String) -> Problem {
        Problem(
            status: .forbidden, title: "Cross-site request refused",
            detail: "This request changes state and \(reason): writes are accepted only from this server's own pages, or with a bearer token."
        )
    }
}

extension HTTPField.Name {
    /// `Sec-Fetch-Site`: where a browser says the request comes from.
    static let secFetchSite = HTTPField.Name("Sec-Fetch-Site")!
    /// `Host`, as HTTP/1.1 requests carry it (HTTPTypes keeps it as the request's authority).
    static let hostField = HTTPField.Name("Host")!
}
