import BinderyRuntime
import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// A small HTTP/1.1 client over a loopback socket, so tests see exactly what the server sends.
///
/// Each request uses its own connection (`Connection: close`); event streams stay open and are
/// read incrementally. Blocking socket calls run on a dispatch queue, with receive timeouts.
struct HTTPTestClient: Sendable {
    let port: Int
    var token: String?

    init(port: Int, token: String? = nil) {
        self.port = port
        self.token = token
    }

    /// Sends one request and reads the whole response.
    func request(
        _ method: String, _ path: String, headers: [String: String] = [:], body: String? = nil,
        contentType: String? = "application/json"
    ) async throws -> TestResponse {
        let connection = try await open(method, path, headers: headers, body: body.map { Array($0.utf8) }, contentType: contentType)
        defer { connection.close() }
        return try await connection.readResponse()
    }

    /// Sends raw bytes and reads the whole response (for malformed requests).
    func raw(_ bytes: String) async throws -> TestResponse {
        let connection = try await TestConnection.connect(port: port)
        defer { connection.close() }
        try connection.send(Array(bytes.utf8))
        return try await connection.readResponse()
    }

    /// Opens an event stream and returns it once the response head arrived.
    func events(_ path: String, headers: [String: String] = [:]) async throws -> EventStreamReader {
        let connection = try await open("GET", path, headers: headers.merging(["Accept": "text/event-stream"]) { $1 }, body: nil, contentType: nil)
        let head = try await connection.readHead()
        return EventStreamReader(connection: connection, head: head)
    }

    private func open(
        _ method: String, _ path: String, headers: [String: String], body: [UInt8]?, contentType: String?
    ) async throws -> TestConnection {
        var lines = ["\(method) \(path) HTTP/1.1", "Host: 127.0.0.1:\(port)", "Connection: close"]
        if let token { lines.append("Authorization: Bearer \(token)") }
        if let body {
            lines.append("Content-Length: \(body.count)")
            if let contentType { lines.append("Content-Type: \(contentType)") }
        }
        lines += headers.map { "\($0.key): \($0.value)" }
        let connection = try await TestConnection.connect(port: port)
        try connection.send(Array((lines.joined(separator: "\r\n") + "\r\n\r\n").utf8) + (body ?? []))
        return connection
    }
}

/// A response as the test client read it.
struct TestResponse: Sendable {
    let status: Int
    let headers: [(name: String, value: String)]
    let body: [UInt8]

    /// The first header with this name (case-insensitive).
    func header(_ name: String) -> String? {
        headers.first { $0.name.lowercased() == name.lowercased() }?.value
    }

    /// The body as text.
    var text: String { String(decoding: body, as: UTF8.self) }

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
