import BinderyRuntime
import BinderyTestSupport
import Foundation

/// A session's view of a test server: one raw connection per request, so tests see exactly
/// what the server sends, with the session's bearer token when it has one.
struct HTTPTestClient: Sendable {
    let port: Int
    var token: String?

    init(port: Int, token: String? = nil) {
        self.port = port
        self.token = token
    }

    /// Sends one request and reads the whole response, failing when the server is silent for
    /// `timeout` (real time).
    func request(
        _ method: String, _ path: String, headers: [String: String] = [:], body: String? = nil,
        contentType: String? = "application/json", timeout: Duration = .seconds(15)
    ) async throws -> RawHTTPResponse {
        var fields = self.fields(headers)
        if body != nil, let contentType { fields.append(("Content-Type", contentType)) }
        let connection = try RawHTTPClient(port: port, timeout: timeout)
        defer { connection.close() }
        return try await connection.request(method, path, headers: fields, body: body.map { Array($0.utf8) })
    }

    /// Opens an event stream and returns it once the response head arrived.
    func events(_ path: String, headers: [String: String] = [:]) async throws -> EventStreamReader {
        let connection = try RawHTTPClient(port: port, timeout: .seconds(15))
        let head =
            "GET \(path) HTTP/1.1\r\n"
            + fields(headers.merging(["Accept": "text/event-stream"]) { $1 })
            .map { "\($0.0): \($0.1)\r\n" }.joined() + "\r\n"
        try await connection.send(head)
        let response = try await connection.readHead()
        return EventStreamReader(connection: connection, head: response)
    }

    private func fields(_ headers: [String: String]) -> [(String, String)] {
        var fields = [("Host", "127.0.0.1:\(port)"), ("Connection", "close")]
        if let token { fields.append(("Authorization", "Bearer \(token)")) }
        return fields + headers.map { ($0.key, $0.value) }
    }
}

extension RawHTTPResponse {
    /// The body as JSON, whatever it is (null when it is not JSON).
    var jsonValue: JSONValue {
        (try? JSONDecoder().decode(JSONValue.self, from: Data(body))) ?? .null
    }

    /// The body as JSON members (empty when not an object).
    var json: [String: JSONValue] {
        (try? JSONDecoder().decode(JSONValue.self, from: Data(body)))?.objectValue ?? [:]
    }

    /// `outputs.<name>` of a snapshot body.
    func output(_ name: String) -> JSONValue? { json["outputs"]?.objectValue?[name] }
    /// `inputs.<name>` of a snapshot body.
    func input(_ name: String) -> JSONValue? { json["inputs"]?.objectValue?[name] }
    /// `version` of a snapshot body.
    var version: Int? { json["version"]?.intValue }
}
