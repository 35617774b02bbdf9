import BinderyRuntime
import Foundation
import Synchronization
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Requests to one Bindery server, as one session: URLSession, no cache and no cookies (the bearer
/// token is the session), JSON bodies.
struct Transport: Sendable {
    /// The server's address, without a trailing slash.
    let base: String
    /// The session's bearer token, shared by every copy: a sign-in replaces it for all of them.
    let credential: Credential
    private let urlSession: URLSession

    init(baseURL: URL, token: String?) {
        var base = baseURL.absoluteString
        while base.hasSuffix("/") { base.removeLast() }
        self.base = base
        self.credential = Credential(token)
        self.urlSession = URLSession(configuration: Self.configuration(timeout: 75))
    }

    /// The session's bearer token now; nil before one is created.
    var token: String? { credential.token }

    /// A session's bearer token, replaced when the session signs in (the server refuses the old one).
    final class Credential: Sendable {
        private let current: Mutex<String?>

        init(_ token: String?) { current = Mutex(token) }

        /// The token requests carry now.
        var token: String? { current.withLock { $0 } }

        /// Carries `token` from now on.
        func replace(with token: String) { current.withLock { $0 = token } }
    }

    /// A configuration without cache or cookies; `timeout` bounds the wait for the next bytes.
    static func configuration(timeout: TimeInterval) -> URLSessionConfiguration {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.urlCache = nil
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        configuration.httpCookieStorage = nil
        configuration.httpShouldSetCookies = false
        configuration.httpCookieAcceptPolicy = .never
        configuration.timeoutIntervalForRequest = timeout
        return configuration
    }

    /// The request for `target` (a path from the root, with its query), with the token and `headers`.
    func request(_ method: String, _ target: String, headers: [String: String] = [:], body: JSONValue? = nil) -> URLRequest {
        var request = URLRequest(url: URL(string: base + target)!)
        request.httpMethod = method
        if let token { request.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization") }
        request.setValue("application/json, application/problem+json", forHTTPHeaderField: "Accept")
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        if let body {
            request.httpBody = Data(JSONWriter.bytes(of: body))
            if headers["Content-Type"] == nil { request.setValue("application/json", forHTTPHeaderField: "Content-Type") }
        }
        return request
    }

    /// Sends a request and reads its whole answer. Throws `CancellationError` when the task is
    /// cancelled (the request is cancelled with it), `URLError` when the network failed.
    func send(_ method: String, _ target: String, headers: [String: String] = [:], body: JSONValue? = nil) async throws -> Answer {
        let request = request(method, target, headers: headers, body: body)
        let data: Data, response: URLResponse
        do {
            (data, response) = try await urlSession.data(for: request)
        } catch {
            if Task.isCancelled { throw CancellationError() }
            throw error
        }
        guard let http = response as? HTTPURLResponse else { throw URLError(.badServerResponse) }
        return Answer(status: http.statusCode, headers: Self.headers(of: http), body: data)
    }

    /// The headers of a response, names lowercased.
    static func headers(of response: HTTPURLResponse) -> [String: String] {
        var headers: [String: String] = [:]
        for (name, value) in response.allHeaderFields {
            if let name = name as? String, let value = value as? String { headers[name.lowercased()] = value }
        }
        return headers
    }
}
