import BinderyHTTP
import BinderyTestSupport
import Testing

/// A full server lets an idle connection yield to a request, and refuses with a 503 when none is
/// idle instead of leaving new connections waiting; the limit is the total over all workers,
/// however the kernel spreads connections (issue 15, finding 2).
@Suite("Connection limit: a total over the workers, idle connections yield, 503 beyond it")
struct ConnectionLimitTests {
    @Test func requestsBeyondTheTotalGet503WhenEveryConnectionIsBusyAndTheServerRecovers() async throws {
        let gate = Gate()
        var router = testRouter()
        router.add(.get, "/held") { _ in
            try await gate.wait()
            return .text("released")
        }
        let configuration = ServerConfiguration(port: 0, workers: 2, connectionLimit: 4, perIPConnectionLimit: 64)
        try await withServer(router, configuration: configuration) { server in
            var busy: [RawHTTPClient] = []
            for _ in 0..<4 {
                let client = try RawHTTPClient(port: server.port)
                try await client.send("GET /held HTTP/1.1\r\nHost: x\r\n\r\n")
                busy.append(client)
            }
            // Each busy connection is inside its handler before the extra one arrives.
            try await Task.sleep(for: .milliseconds(200))
            let extra = try RawHTTPClient(port: server.port)
            let refused = try await extra.request("GET", "/fast")
            #expect(refused.status == 503)
            #expect(refused.header("Retry-After") == "1")
            #expect(refused.header("Content-Type") == "application/problem+json")
            #expect(try await extra.waitForClose(), "the refused connection is closed, its place given back")
            #expect(server.reclaimedIdleConnections == 0, "no connection was idle")
            gate.open()
            for client in busy { #expect(try await client.readResponse().status == 200) }
            busy.removeLast().close()
            var status = 0
            for _ in 0..<100 where status != 200 {
                let again = try RawHTTPClient(port: server.port)
                status = try await again.request("GET", "/fast").status
                again.close()
                if status != 200 { try await Task.sleep(for: .milliseconds(20)) }
            }
            #expect(status == 200, "a place freed is usable again")
            busy.forEach { $0.close() }
        }
    }

    @Test func aClientSharingAnAddressWithAFloodIsServed() async throws {
        // Everyone here is 127.0.0.1, like everyone behind one NAT: idle connections holding the
        // address's cap yield to the newcomer instead of it being refused at the door.
        let configuration = ServerConfiguration(port: 0, workers: 2, connectionLimit: 64, perIPConnectionLimit: 4)
        try await withServer(testRouter(), configuration: configuration) { server in
            var flood: [RawHTTPClient] = []
            for _ in 0..<4 {
                let client = try RawHTTPClient(port: server.port, timeout: .seconds(3))
                try await client.send("GET /fast HTTP/1.1\r\nHost: x\r\n")  // a head that never ends
                flood.append(client)
            }
            try await Task.sleep(for: .milliseconds(100))
            for _ in 0..<3 {
                let user = try RawHTTPClient(port: server.port)
                #expect(try await user.request("GET", "/fast").status == 200)
                user.close()
            }
            #expect(server.reclaimedIdleConnections >= 1)
            // Which of the flood waited longest is the server's view: under load, two workers may
            // accept the flood in another order than it connected. Some of it made room.
            let closed = try await withThrowingTaskGroup(of: Bool.self) { group in
                for client in flood { group.addTask { try await client.waitForClose() } }
                return try await group.reduce(0) { $0 + ($1 ? 1 : 0) }
            }
            #expect(closed >= 1, "an idle connection of the flood made room")
            flood.forEach { $0.close() }
        }
    }

    @Test func aRequestBeyondTheTotalTakesTheIdlestConnectionsPlace() async throws {
        // Deadlines far beyond the test: on a loaded machine, an idle connection closed for its
        // overdue head (30 s by default) would make room before the extra request arrives.
        let configuration = ServerConfiguration(
            port: 0, workers: 2, connectionLimit: 4, perIPConnectionLimit: 64,
            connectionTimeoutSeconds: 3600, requestHeadTimeoutSeconds: 3600
        )
        try await withServer(testRouter(), configuration: configuration) { server in
            var idle: [RawHTTPClient] = []
            for _ in 0..<4 {
                let client = try RawHTTPClient(port: server.port, timeout: .seconds(3))
                #expect(try await client.request("GET", "/fast").status == 200, "within the limit")
                idle.append(client)
            }
            // Full of idle keep-alive connections (a flood would look the same): the request is
            // served, and the connection idle longest makes room.
            let extra = try RawHTTPClient(port: server.port)
            #expect(try await extra.request("GET", "/fast").status == 200)
            #expect(server.reclaimedIdleConnections == 1, "overdue heads closed: \(server.overdueHeadClosures)")
            #expect(try await idle[0].waitForClose(), "the connection idle longest was closed")
            #expect(try await idle[3].request("GET", "/fast").status == 200, "the others stay")
            idle.forEach { $0.close() }
            extra.close()
        }
    }
}
