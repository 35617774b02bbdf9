import BinderyHTTP
import BinderyTestSupport
import Testing

/// A full server refuses with a 503 instead of leaving new connections waiting, and the limit
/// is the total over all workers, however the kernel spreads connections (issue 15, finding 2).
@Suite("Connection limit: a total over the workers, 503 beyond it")
struct ConnectionLimitTests {
    @Test func requestsBeyondTheTotalGet503AndTheServerRecovers() async throws {
        let configuration = ServerConfiguration(port: 0, workers: 2, connectionLimit: 4, perIPConnectionLimit: 64)
        try await withServer(testRouter(), configuration: configuration) { server in
            var idle: [RawHTTPClient] = []
            for _ in 0..<4 {
                let client = try RawHTTPClient(port: server.port)
                let answer = try await client.request("GET", "/fast")
                #expect(answer.status == 200, "within the limit")
                idle.append(client)
            }
            let extra = try RawHTTPClient(port: server.port)
            let refused = try await extra.request("GET", "/fast")
            #expect(refused.status == 503)
            #expect(refused.header("Retry-After") == "1")
            #expect(refused.header("Content-Type") == "application/problem+json")
            #expect(try await extra.waitForClose(), "the refused connection is closed, its place given back")
            idle.removeLast().close()
            var status = 0
            for _ in 0..<100 where status != 200 {
                let again = try RawHTTPClient(port: server.port)
                status = try await again.request("GET", "/fast").status
                again.close()
                if status != 200 { try await Task.sleep(for: .milliseconds(20)) }
            }
            #expect(status == 200, "a place freed is usable again")
            idle.forEach { $0.close() }
        }
    }
}
