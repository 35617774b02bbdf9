import BinderyRuntime
import BinderyStore
import BinderyTestSupport
import Testing

/// Headers as Swift's OpenAPI runtime sends them: every value percent-encoded (`If-None-Match:
/// %223%22`, `Prefer: wait%3D30`, `Idempotency-Key: %22k%22`). They mean what they say decoded;
/// what parses as sent is never decoded (issue 40).
@Suite("Percent-encoded conditional, preference and idempotency headers")
struct PercentEncodedHeadersHTTPTests {
    @Test func encodedEntityTagsConditionReadsAndWrites() async throws {
        try await TestServer.with { server in
            let client = try await server.newSession()
            let read = try await client.request("GET", "/api/views/form")
            let version = try #require(read.json["version"]?.intValue)
            let unchanged = try await client.request("GET", "/api/views/form", headers: ["If-None-Match": "%22\(version)%22"])
            #expect(unchanged.status == 304)
            let written = try await client.request(
                "PATCH", "/api/views/form", headers: ["If-Match": "%22\(version)%22"], body: #"{"phone": "18612345678"}"#
            )
            #expect(written.status == 200)
            let stale = try await client.request(
                "PATCH", "/api/views/form", headers: ["If-Match": "%22\(version)%22"], body: #"{"phone": "13800000000"}"#
            )
            #expect(stale.status == 412, "the stale version, encoded, is still the stale version")
            #expect(stale.json["fields"] == ["phone"])
            let any = try await client.request("PATCH", "/api/views/form", headers: ["If-Match": "%2A"], body: #"{"password": "x"}"#)
            #expect(any.status == 200)
        }
    }

    @Test func anEncodedWaitIsWaitedFor() async throws {
        let gate = Gate()
        try await TestServer.with(app: JobsViewModel.app(gate: gate)) { server in
            let client = try await server.newSession()
            async let waited = client.request(
                "POST", "/api/views/jobs/commands/serial", headers: ["Prefer": "wait%3D30"], body: #"{"value": 1}"#,
                timeout: .seconds(60)
            )
            // Shown executing while the request still waits (without the wait it is answered 202).
            var executing = false
            for _ in 0..<500 where !executing {
                let snapshot = try await client.request("GET", "/api/views/jobs")
                executing = snapshot.json["commands"]?.objectValue?["serial"]?.objectValue?["executing"] == true
                if !executing { try await Task.sleep(for: .milliseconds(10)) }
            }
            #expect(executing)
            gate.open()
            let answer = try await waited
            #expect(answer.status == 200, "answered once done, as Prefer: wait=30 asks")
            #expect(answer.output("log") == ["serial:1"])
        }
    }

    @Test func anEncodedQuotedKeyIsTheSameKey() async throws {
        try await TestServer.with { server in
            let client = try await server.newSession()
            let body = #"{"phone": "18612345678"}"#
            let first = try await client.request("PATCH", "/api/views/form", headers: ["Idempotency-Key": #""k-1""#], body: body)
            #expect(first.status == 200 && first.header("Idempotent-Replayed") == nil)
            let retried = try await client.request("PATCH", "/api/views/form", headers: ["Idempotency-Key": "%22k-1%22"], body: body)
            #expect(retried.status == 200)
            #expect(retried.header("Idempotent-Replayed") == "true")
            #expect(retried.header("ETag") == first.header("ETag"))
        }
    }
}
