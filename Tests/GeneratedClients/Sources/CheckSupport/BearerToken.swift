import Foundation
import HTTPTypes
import OpenAPIRuntime

/// Sends `Authorization: Bearer <token>` with every request: how a generated client carries a
/// Bindery session (the document's `bearerAuth` scheme; generated clients leave credentials to a
/// middleware).
public struct BearerToken: ClientMiddleware {
    /// The session's token, as `POST /api/sessions` answered it.
    public let token: String

    /// A middleware sending `token`.
    public init(_ token: String) {
        self.token = token
    }

    /// Adds the header and passes the request on.
    public func intercept(
        _ request: HTTPRequest, body: HTTPBody?, baseURL: URL, operationID: String,
        next: @Sendable (HTTPRequest, HTTPBody?, URL) async throws -> (HTTPResponse, HTTPBody?)
    ) async throws -> (HTTPResponse, HTTPBody?) {
        var request = request
        request.headerFields[.authorization] = "Bearer \(token)"
        return try await next(request, body, baseURL)
    }
}
