import BinderyHTTP
import BinderyTestSupport
import Testing

/// Request smuggling: framing a server and a proxy could read differently is refused and the
/// connection closed, so bytes after the head are never read as another request.
@Suite("HTTP framing: Content-Length with Transfer-Encoding, unknown codings")
struct FramingTests {
    /// A request with both framings whose chunked body ends early, hiding a second request
    /// (CL.TE), and the same with the roles swapped (TE.CL).
    static let smuggled: [(name: String, head: String, body: String)] = [
        (
            "CL.TE",
            "POST /echo HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 60\r\nTransfer-Encoding: chunked\r\n\r\n",
            "2\r\n{}\r\n0\r\n\r\nPATCH /echo HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\n\r\n"
        ),
        (
            "TE.CL",
            "POST /echo HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\nContent-Length: 4\r\n\r\n",
            "2\r\n{}\r\n0\r\n\r\nPATCH /echo HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\n\r\n"
        ),
    ]

    @Test("Content-Length with Transfer-Encoding: 400, connection closed, nothing smuggled", arguments: 0..<2)
    func bothFramings(_ index: Int) async throws {
        let (name, head, body) = Self.smuggled[index]
        try await withServer(testRouter()) { server in
            let client = try RawHTTPClient(port: server.port)
            try await client.send(head + body)
            let response = try await client.readResponse()
            #expect(response.status == 400, "\(name)")
            #expect(response.header("Content-Type") == "application/problem+json", "\(name)")
            #expect(response.header("Connection")?.lowercased() == "close", "\(name)")
            #expect(try await client.waitForClose(), "\(name): the hidden PATCH must never be answered")
        }
    }

    @Test(
        "A transfer coding other than chunked alone: 501 at once, connection closed",
        arguments: [
            "xchunked", "identity, chunked", "gzip, chunked", "chunked, chunked", "chunked ", "chunked;x=1",
        ])
    func unknownCoding(_ coding: String) async throws {
        try await withServer(testRouter()) { server in
            let client = try RawHTTPClient(port: server.port, timeout: .seconds(5))
            try await client.send(
                "POST /echo HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nTransfer-Encoding: \(coding)\r\n\r\n2\r\n{}\r\n0\r\n\r\n"
            )
            let response = try await client.readResponse()
            #expect(response.status == 501, "\(coding)")
            #expect(response.header("Content-Type") == "application/problem+json")
            #expect(try await client.waitForClose())
        }
    }

    @Test("Two Host headers: 400, connection closed")
    func twoHosts() async throws {
        try await withServer(testRouter()) { server in
            let client = try RawHTTPClient(port: server.port)
            try await client.send("GET /fast HTTP/1.1\r\nHost: a\r\nHost: b\r\n\r\n")
            let response = try await client.readResponse()
            #expect(response.status == 400)
            #expect(try await client.waitForClose())
        }
    }

    @Test("HTTP/1.1 without Host: 400 problem, connection closed; HTTP/1.0 without Host is fine")
    func missingHost() async throws {
        try await withServer(testRouter()) { server in
            let client = try RawHTTPClient(port: server.port)
            try await client.send("GET /fast HTTP/1.1\r\n\r\n")
            let response = try await client.readResponse()
            #expect(response.status == 400)
            #expect(response.header("Content-Type") == "application/problem+json")
            #expect(try await client.waitForClose())
            let old = try RawHTTPClient(port: server.port)
            try await old.send("GET /fast HTTP/1.0\r\n\r\n")
            #expect(try await old.readResponse().status == 200)
        }
    }

    @Test("Chunked, in any letter case, still works", arguments: [" chunked", "Chunked", "CHUNKED"])
    func chunkedStillWorks(_ coding: String) async throws {
        try await withServer(testRouter()) { server in
            let client = try RawHTTPClient(port: server.port)
            try await client.send(
                "POST /echo HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nTransfer-Encoding:\(coding)\r\n\r\n2\r\n{}\r\n0\r\n\r\n"
            )
            let response = try await client.readResponse()
            #expect(response.status == 201, "\(coding)")
            #expect(response.text == "{}")
        }
    }
}
