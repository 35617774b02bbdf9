import BinderyHTTP
import BinderyTestSupport
import Foundation
import HTTPTypes
import Testing

/// An error that shows itself as a 409.
private struct ConflictError: ProblemConvertible {
    var problem: Problem { Problem(status: .conflict, detail: "busy", extensions: ["field": "name"]) }
}

/// An error with internals that must not leak.
private struct SecretError: Error {
    let secret = "database password is hunter2"
}

/// The router most server tests use.
func testRouter() -> Router {
    var router = Router()
    router.add(.get, "/fast", immediate: { _ in .text("fast") }, handler: { _ in .text("slow") })
    router.add(.get, "/async") { _ in
        await Task.yield()
        return .text("async")
    }
    router.add(.post, "/echo") { request in
        .json(request.body, status: .created)
    }
    router.add(.patch, "/echo") { request in .json(request.body) }
    router.add(.get, "/upstream/images/{name}") { request in
        .text("image \(request.parameters["name"] ?? "?") q=\(request.query["q"] ?? "-")")
    }
    router.add(.get, "/api/views/{rest...}") { request in
        .text("view \(request.parameters["rest"] ?? "?")")
    }
    router.add(.get, "/conflict") { _ in throw ConflictError() }
    router.add(.get, "/secret") { _ in throw SecretError() }
    router.add(.get, "/session") { _ in
        var response = Response.text("ok")
        response.logMetadata["session.id"] = "s-42"
        return response
    }
    return router
}

@Suite("HTTP server")
struct ServerTests {
    @Test("GET answered on the fast path, without a task")
    func fastPath() async throws {
        try await withServer(testRouter()) { server in
            let client = try RawHTTPClient(port: server.port)
            let response = try await client.request("GET", "/fast")
            #expect(response.status == 200)
            #expect(response.text == "fast")
            #expect(response.header("Content-Type") == "text/plain; charset=utf-8")
        }
    }

    @Test("GET answered by an async handler")
    func asyncPath() async throws {
        try await withServer(testRouter()) { server in
            let client = try RawHTTPClient(port: server.port)
            let response = try await client.request("GET", "/async")
            #expect(response.status == 200)
            #expect(response.text == "async")
        }
    }

    @Test("Keep-alive: two requests on one connection, neither closes it")
    func keepAlive() async throws {
        try await withServer(testRouter()) { server in
            let client = try RawHTTPClient(port: server.port)
            let first = try await client.request("GET", "/fast")
            let second = try await client.request("GET", "/async")
            let third = try await client.request("GET", "/fast")
            #expect([first.status, second.status, third.status] == [Int](repeating: 200, count: 3))
            for response in [first, second, third] {
                #expect(response.header("Connection")?.lowercased() != "close")
            }
            #expect(second.text == "async")
        }
    }

    @Test("Unknown path is a 404 problem")
    func notFound() async throws {
        try await withServer(testRouter()) { server in
            let client = try RawHTTPClient(port: server.port)
            let response = try await client.request("GET", "/nope")
            #expect(response.status == 404)
            #expect(response.header("Content-Type") == "application/problem+json")
            let object = try JSONSerialization.jsonObject(with: Data(response.body)) as? [String: Any]
            #expect(object?["status"] as? Int == 404)
            #expect(object?["title"] as? String == "Not Found")
            #expect(object?["type"] as? String == "about:blank")
        }
    }

    @Test("Known path with another method is a 405 with Allow")
    func methodNotAllowed() async throws {
        try await withServer(testRouter()) { server in
            let client = try RawHTTPClient(port: server.port)
            let response = try await client.request("DELETE", "/echo")
            #expect(response.status == 405)
            #expect(response.header("Allow") == "PATCH, POST")
            let get = try await client.request("PUT", "/fast")
            #expect(get.status == 405)
            #expect(get.header("Allow") == "GET, HEAD")
        }
    }

    @Test("HEAD on a GET route: headers only")
    func head() async throws {
        try await withServer(testRouter()) { server in
            let client = try RawHTTPClient(port: server.port)
            let response = try await client.request("HEAD", "/async")
            #expect(response.status == 200)
            #expect(response.body.isEmpty)
            #expect(response.header("Content-Length") == "5")
            // The connection is still usable: no stray body bytes were sent.
            let next = try await client.request("GET", "/fast")
            #expect(next.text == "fast")
        }
    }

    @Test("Path parameters, rest parameters and query are percent-decoded")
    func parameters() async throws {
        try await withServer(testRouter()) { server in
            let client = try RawHTTPClient(port: server.port)
            let image = try await client.request("GET", "/upstream/images/a%20b.png?q=x%26y+z")
            #expect(image.text == "image a b.png q=x&y z")
            let view = try await client.request("GET", "/api/views/gallery/photos/3")
            #expect(view.text == "view gallery/photos/3")
        }
    }

    @Test("Content-Length over the limit: 413 at once, connection closed")
    func tooLargeByContentLength() async throws {
        try await withServer(testRouter(), configuration: ServerConfiguration(maxBodyBytes: 1024)) { server in
            let client = try RawHTTPClient(port: server.port)
            try await client.send("POST /echo HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 5000000\r\n\r\n")
            let response = try await client.readResponse()
            #expect(response.status == 413)
            #expect(response.header("Content-Type") == "application/problem+json")
            #expect(try await client.waitForClose())
        }
    }

    @Test("Chunked body over the limit: discarded, 413 at the end, connection kept")
    func tooLargeChunked() async throws {
        try await withServer(testRouter(), configuration: ServerConfiguration(maxBodyBytes: 1024)) { server in
            let client = try RawHTTPClient(port: server.port)
            var request = "POST /echo HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n"
            for _ in 0..<3 { request += "3e8\r\n" + String(repeating: "a", count: 1000) + "\r\n" }
            request += "0\r\n\r\n"
            try await client.send(request)
            let response = try await client.readResponse()
            #expect(response.status == 413)
            let next = try await client.request("GET", "/fast")
            #expect(next.status == 200)
        }
    }

    @Test("Chunked body under the limit reaches the handler")
    func chunkedBody() async throws {
        try await withServer(testRouter()) { server in
            let client = try RawHTTPClient(port: server.port)
            try await client.send(
                "POST /echo HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n5\r\n{\"a\":\r\n2\r\n1}\r\n0\r\n\r\n"
            )
            let response = try await client.readResponse()
            #expect(response.status == 201)
            #expect(response.text == #"{"a":1}"#)
        }
    }

    @Test("Writes with a non-JSON body are 415; JSON and merge-patch pass")
    func unsupportedMediaType() async throws {
        try await withServer(testRouter()) { server in
            let client = try RawHTTPClient(port: server.port)
            let text = try await client.request("POST", "/echo", headers: [("Content-Type", "text/plain")], body: Array("hi".utf8))
            #expect(text.status == 415)
            let missing = try await client.request("POST", "/echo", body: Array("{}".utf8))
            #expect(missing.status == 415)
            let json = try await client.request(
                "POST", "/echo", headers: [("Content-Type", "application/json; charset=utf-8")], body: Array("{}".utf8)
            )
            #expect(json.status == 201)
            let patch = try await client.request(
                "PATCH", "/echo", headers: [("Content-Type", "application/merge-patch+json")], body: Array("{\"x\":1}".utf8)
            )
            #expect(patch.status == 200)
            #expect(patch.text == "{\"x\":1}")
        }
    }

    @Test("Duplicate Content-Length is a 400")
    func duplicateContentLength() async throws {
        try await withServer(testRouter()) { server in
            let client = try RawHTTPClient(port: server.port)
            let response = try await client.request(
                "POST", "/echo",
                headers: [("Content-Type", "application/json"), ("Content-Length", "2"), ("Content-Length", "4")],
                body: Array("{}".utf8)
            )
            #expect(response.status == 400)
            #expect(response.header("Content-Type") == "application/problem+json")
        }
    }

    @Test("GET with a body on a route that ignores it answers normally")
    func getWithBody() async throws {
        try await withServer(testRouter()) { server in
            let client = try RawHTTPClient(port: server.port)
            let fast = try await client.request("GET", "/fast", body: Array(String(repeating: "x", count: 3000).utf8))
            #expect(fast.status == 200)
            #expect(fast.text == "fast")
            let slow = try await client.request("GET", "/async", body: Array("ignored".utf8))
            #expect(slow.status == 200)
            let missing = try await client.request("GET", "/nope", body: Array("ignored".utf8))
            #expect(missing.status == 404)
        }
    }

    @Test("Thrown errors become problems; internals never leak")
    func thrownErrors() async throws {
        try await withServer(testRouter()) { server in
            let client = try RawHTTPClient(port: server.port)
            let conflict = try await client.request("GET", "/conflict")
            #expect(conflict.status == 409)
            #expect(conflict.text.contains(#""field":"name""#))
            let secret = try await client.request("GET", "/secret")
            #expect(secret.status == 500)
            #expect(!secret.text.contains("hunter2"))
            #expect(!secret.text.contains("SecretError"))
        }
    }

    @Test("One log line per request with method, path, status, duration and response metadata")
    func requestLog() async throws {
        let logs = LogRecorder()
        try await withServer(testRouter(), logs: logs) { server in
            let client = try RawHTTPClient(port: server.port)
            _ = try await client.request("GET", "/session")
            let logged = await eventually { logs.all.contains { $0.message == "request" } }
            #expect(logged)
        }
        let line = try #require(logs.all.first { $0.message == "request" })
        #expect(line.level == .info)
        #expect(line.metadata["http.method"] == "GET")
        #expect(line.metadata["http.path"] == "/session")
        #expect(line.metadata["http.status"] == "200")
        #expect(line.metadata["http.duration_ms"] != nil)
        #expect(line.metadata["session.id"] == "s-42")
    }

    @Test("Several workers share the port")
    func workers() async throws {
        try await withServer(testRouter(), configuration: ServerConfiguration(workers: 3)) { server in
            #expect(server.port > 0)
            for _ in 0..<6 {
                let client = try RawHTTPClient(port: server.port)
                #expect(try await client.request("GET", "/fast").status == 200)
            }
        }
    }

    @Test("Start failures throw")
    func startFailures() async throws {
        let badHost = HTTPServer(
            configuration: ServerConfiguration(host: "not-an-address", port: 0),
            responder: testRouter(), logger: LogRecorder().logger()
        )
        #expect(throws: HTTPServerError.invalidHost("not-an-address")) { try badHost.start() }
        try await withServer(testRouter(), configuration: ServerConfiguration(workers: 1)) { server in
            let clash = HTTPServer(
                configuration: ServerConfiguration(port: server.port, workers: 1),
                responder: testRouter(), logger: LogRecorder().logger()
            )
            #expect(throws: HTTPServerError.self) { try clash.start() }
        }
    }
}
