import BinderyRuntime
import BinderyStore
import BinderyTestSupport
import Testing

/// A clean stop: waiting requests hear "shutting down" (503, Retry-After), not a cancellation or
/// "not found", and a command cut short is recorded as interrupted in the store.
@Suite("Shutdown")
struct ShutdownTests {
    @Test func waitingRequestsGet503WithRetryAfterAndARunningCommandIsRecordedInterrupted() async throws {
        let gate = Gate()
        let store = MemoryStore()
        let server = try await TestServer.start(store: store, app: JobsViewModel.app(gate: gate))
        let client = try await server.newSession()

        // A command whose client waits for its end; once it shows as executing, a long-poll for
        // the version after that. Both wait longer than the client's default silence of 15 s may
        // last on a loaded machine, so they are read until the shutdown answers them.
        async let command = client.request(
            "POST", "/api/views/jobs/commands/serial", headers: ["Prefer": "wait=30"], body: #"{"value": 1}"#,
            timeout: .seconds(120)
        )
        var version: String?
        for _ in 0..<200 where version == nil {
            let snapshot = try await client.request("GET", "/api/views/jobs")
            if snapshot.json["commands"]?.objectValue?["serial"]?.objectValue?["executing"] == true {
                version = snapshot.header("ETag")?.filter(\.isNumber)
            } else {
                try await Task.sleep(for: .milliseconds(10))
            }
        }
        let after = try #require(version)
        async let longPoll = client.request("GET", "/api/views/jobs?after=\(after)", headers: ["Prefer": "wait=30"], timeout: .seconds(120))
        // Give the long-poll a moment to arrive (it cannot be observed from outside).
        try await Task.sleep(for: .milliseconds(300))

        await server.application.shutdown()
        for (name, response) in [("command", try await command), ("long-poll", try await longPoll)] {
            #expect(response.status == 503, "\(name)")
            #expect(response.header("Retry-After") == "2", "\(name)")
            #expect(response.header("Content-Type") == "application/problem+json", "\(name)")
            #expect(response.json["title"] == "Shutting down", "\(name)")
        }

        // The store says the command was interrupted; a restarted server shows it so.
        try await TestServer.with(store: store, app: JobsViewModel.app(gate: gate)) { restarted in
            var again = restarted.anonymousClient()
            again.token = client.token
            let snapshot = try await again.request("GET", "/api/views/jobs")
            #expect(snapshot.status == 200)
            let serial = snapshot.json["commands"]?.objectValue?["serial"]?.objectValue
            #expect(serial?["executing"] == false)
            #expect(serial?["error"]?.objectValue?["message"]?.stringValue?.hasPrefix("Interrupted") == true)
        }
    }
}
