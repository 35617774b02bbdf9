import BinderyRuntime
import BinderyTestSupport
import BinderyUpstream
import Clocks
import Testing

@Suite("Commands over HTTP: concurrency policies and cancellation")
struct CommandsHTTPTests {
    @Test func theListsLoadCanBeCancelledAndLeavesTheListAsItWas() async throws {
        let clock = TestClock()
        try await TestServer.with(upstream: UpstreamSettingsFixture.latency(1000), clock: clock) { server in
            let client = try await server.newSession()
            let started = try await client.request("POST", "/api/views/list/commands/load")
            #expect(started.status == 202)
            #expect(started.json["commands"]?.objectValue?["load"]?.objectValue?["executing"] == true)

            let cancelled = try await client.request("POST", "/api/views/list/commands/load/cancel")
            #expect(cancelled.status == 200)
            let load = cancelled.json["commands"]?.objectValue?["load"]?.objectValue
            #expect(load?["executing"] == false, "executing is false once the work has stopped")
            #expect(load?["error"] == .null)
            #expect(cancelled.output("items") == [])
            #expect(cancelled.output("error") == .null)

            let again = try await client.request("POST", "/api/views/list/commands/load/cancel")
            #expect(again.status == 409)
            #expect(again.json["title"] == "Command not running")
            #expect(again.header("Content-Type") == "application/problem+json")
            let unknown = try await client.request("POST", "/api/views/list/commands/explode/cancel")
            #expect(unknown.status == 404)
        }
    }

    @Test func eachPolicyIsEnforcedOverHTTP() async throws {
        let gate = Gate()
        try await TestServer.with(app: JobsViewModel.app(gate: gate)) { server in
            let client = try await server.newSession()
            func post(_ command: String, _ value: Int) async throws -> RawHTTPResponse {
                try await client.request("POST", "/api/views/jobs/commands/\(command)", body: #"{"value": \#(value)}"#)
            }
            // serial: a second execution while one runs is refused.
            #expect(try await post("serial", 1).status == 202)
            let refused = try await post("serial", 2)
            #expect(refused.status == 409)
            #expect(refused.json["title"] == "Command already executing")
            // concurrent: both run.
            #expect(try await post("together", 1).status == 202)
            #expect(try await post("together", 2).status == 202)
            // cancelPrevious: the second cancels the first.
            #expect(try await post("latest", 1).status == 202)
            #expect(try await post("latest", 2).status == 202)
            // queue(limit: 1): one runs, one waits, the third is refused.
            #expect(try await post("enqueue", 1).status == 202)
            let queued = try await post("enqueue", 2)
            #expect(queued.status == 202)
            let policies = queued.json["commands"]?.objectValue?.mapValues { $0.objectValue?["policy"] ?? .null }
            #expect(policies == ["serial": "serial", "together": "concurrent", "latest": "cancelPrevious", "enqueue": "queue"])
            let full = try await post("enqueue", 3)
            #expect(full.status == 429)
            #expect(full.json["title"] == "Command queue full")

            gate.open()
            var snapshot = try await client.request("GET", "/api/views/jobs")
            for _ in 0..<100 where snapshot.output("log")?.arrayValue?.count != 6 {
                let version = snapshot.version ?? 0
                snapshot = try await client.request("GET", "/api/views/jobs?after=\(version)", headers: ["Prefer": "wait=5"])
            }
            let log = (snapshot.output("log")?.arrayValue ?? []).compactMap(\.stringValue)
            // The cancelled `latest:1` and the refused `serial:2` and `enqueue:3` left nothing.
            #expect(Set(log) == ["serial:1", "together:1", "together:2", "latest:2", "enqueue:1", "enqueue:2"])
            #expect(log.count == 6)
            let enqueued = log.filter { $0.hasPrefix("enqueue") }
            #expect(enqueued == ["enqueue:1", "enqueue:2"], "a queue runs in order")
        }
    }
}
