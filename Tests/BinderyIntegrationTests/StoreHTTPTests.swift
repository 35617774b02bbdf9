import BinderyRuntime
import BinderyStore
import Clocks
import Foundation
import Testing

@Suite("The durable store over HTTP: failed commits, restarts")
struct StoreHTTPTests {
    @Test func aFailedCommitAnswers503AndChangesNothingWhileReadsKeepWorking() async throws {
        let store = FailingStore()
        try await TestServer.with(store: store) { server in
            let client = try await server.newSession()
            let before = try await client.request(
                "PATCH", "/api/views/form", body: #"{"phone": "18612345678", "password": "passw0rd"}"#
            )
            #expect(before.status == 200)
            store.failCommits(true)
            let refused = try await client.request("PATCH", "/api/views/form", body: #"{"phone": "1"}"#)
            #expect(refused.status == 503)
            #expect(refused.json["title"] == "Storage unavailable")
            #expect(refused.header("Retry-After") == "1")
            let command = try await client.request("POST", "/api/views/form/commands/clear")
            #expect(command.status == 503, "clear is enabled, but its result cannot be saved")
            let read = try await client.request("GET", "/api/views/form")
            #expect(read.status == 200)
            #expect(read.input("phone") == "18612345678")
            #expect(read.version == before.version)
            store.failCommits(false)
            let written = try await client.request("PATCH", "/api/views/form", body: #"{"phone": "1"}"#)
            #expect(written.status == 200)
            #expect(written.version == (before.version ?? 0) + 1)
            #expect(written.input("password") == "passw0rd", "the refused clear cleared nothing")
        }
    }

    @Test func aSessionOutlivesItsServerOnTheSameSQLiteFile() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("bindery-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("b.sqlite").path
        let (token, etag) = try await TestServer.with(store: try SQLiteStore(path: path)) { server in
            let client = try await server.newSession()
            let written = try await client.request("PATCH", "/api/views/form", body: #"{"phone": "13800000000"}"#)
            return (client.token ?? "", written.header("ETag") ?? "")
        }
        try await TestServer.with(store: try SQLiteStore(path: path)) { server in
            var client = server.anonymousClient()
            client.token = token
            let restored = try await client.request("GET", "/api/views/form")
            #expect(restored.status == 200)
            #expect(restored.input("phone") == "13800000000")
            #expect(restored.header("ETag") == etag, "the version continues")
            let conditional = try await client.request(
                "PATCH", "/api/views/form", headers: ["If-Match": etag], body: #"{"password": "passw0rd"}"#
            )
            #expect(conditional.status == 200, "an ETag from before the restart is still valid")
            client.token = String(repeating: "ab", count: 16)
            #expect(try await client.request("GET", "/api/views/form").status == 401)
        }
    }

    @Test func readinessIs503WhileTheStoreDoesNotAnswer() async throws {
        let store = FailingStore()
        let clock = TestClock()
        try await TestServer.with(clock: clock, store: store) { server in
            let client = server.anonymousClient()
            #expect(try await client.request("GET", "/readyz").status == 200)
            store.failReads(true)
            var status = 200
            for _ in 0..<200 where status != 503 {
                await clock.advance(by: .seconds(2))
                status = try await client.request("GET", "/readyz").status
            }
            #expect(status == 503, "the probe saw the store fail")
            #expect(try await client.request("GET", "/healthz").status == 200, "the process still answers")
            store.failReads(false)
            for _ in 0..<200 where status != 200 {
                await clock.advance(by: .seconds(2))
                status = try await client.request("GET", "/readyz").status
            }
            #expect(status == 200, "ready again once the store answers")
        }
    }
}
