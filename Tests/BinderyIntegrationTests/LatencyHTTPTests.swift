import BinderyBinding
import BinderyRuntime
import BinderyTestSupport
import Foundation
import InMemoryTracing
import Observation
import Testing
import Tracing

/// Server-Timing on API answers, the per-screen latency metrics and budgets, and the spans of a
/// request (an in-memory tracer continuing an incoming trace).
@Suite("Latency: Server-Timing, per-screen metrics, budgets, spans")
struct LatencyHTTPTests {
    @Test func everyAPIAnswerSaysItsPhases() async throws {
        try await TestServer.with { server in
            let client = try await server.newSession()
            let read = try await client.request("GET", "/api/views/form")
            #expect(Self.phases(read) == ["total"])
            // Watched: the write's version is pushed before the answer.
            let events = try await client.events("/api/views/form/events")
            defer { events.close() }
            _ = try await events.next()
            let write = try await client.request("PATCH", "/api/views/form", body: #"{"phone": "1861"}"#)
            #expect(write.status == 200)
            #expect(Self.phases(write) == ["parse", "apply", "commit", "push", "render", "total"])
            let durations = try Self.durations(write)
            let sum = durations.filter { $0.key != "total" }.values.reduce(0, +)
            #expect(durations.values.allSatisfy { $0 >= 0 } && sum <= durations["total", default: 0] + 0.01)
            // Nothing changed: nothing committed.
            let same = try await client.request("PATCH", "/api/views/form", body: #"{"phone": "1861"}"#)
            #expect(Self.phases(same) == ["parse", "apply", "total"])
            let command = try await client.request("POST", "/api/views/form/commands/clear")
            #expect(command.status == 409 || Self.phases(command).contains("commit"))
            let refused = try await client.request("GET", "/api/views/nowhere")
            #expect(refused.status == 404 && Self.phases(refused) == ["total"])
        }
    }

    @Test func writesAreMeasuredPerScreenAndCountedAgainstTheirBudgets() async throws {
        try await TestServer.with(app: NoteViewModel.app) { server in
            let client = try await server.newSession()
            _ = try await client.request("PATCH", "/api/views/notes", body: #"{"text": "unwatched"}"#)
            let events = try await client.events("/api/views/notes/events")
            defer { events.close() }
            _ = try await events.next()
            for text in ["a", "ab", "abc"] {
                #expect(try await client.request("PATCH", "/api/views/notes", body: #"{"text": "\#(text)"}"#).status == 200)
            }
            _ = try await client.request("GET", "/api/views/notes")  // a read is no write
            let metrics = try await server.anonymousClient().request("GET", "/metrics").text
            func value(_ series: String) -> Double? {
                metrics.split(separator: "\n").first { $0.hasPrefix(series + " ") }.flatMap { Double($0.split(separator: " ").last ?? "") }
            }
            #expect(value(#"bindery_write_to_commit_seconds_count{screen="notes"}"#) == 4)
            #expect(value(#"bindery_write_to_push_seconds_count{screen="notes"}"#) == 3, "only watched writes are pushed")
            // A zero budget for the commit: every write breaches it; an hour for the push: none.
            #expect(value(#"bindery_latency_budget_breaches_total{screen="notes",measure="write_to_commit"}"#) == 4)
            #expect(value(#"bindery_latency_budget_breaches_total{screen="notes",measure="write_to_push"}"#) == 0, "declared: shown from the start")

            let views = try #require(try await server.anonymousClient().request("GET", "/api/views").json["views"]?.arrayValue)
            #expect(
                views.first?.objectValue?["latencyBudgets"] == [
                    ["measure": "write_to_commit", "limitMs": 0, "percentile": 99],
                    ["measure": "write_to_push", "limitMs": 3_600_000, "percentile": 99.9],
                ])
        }
    }

    @Test func aWritesSpansContinueTheIncomingTrace() async throws {
        let tracer = InMemoryTracer()
        try await TestServer.with(tracer: tracer) { server in
            let client = try await server.newSession()
            let events = try await client.events("/api/views/form/events")
            defer { events.close() }
            _ = try await events.next()
            let incoming = [InMemoryTracer.traceIDKey: "trace-from-the-client", InMemoryTracer.spanIDKey: "span-from-the-client"]
            #expect(try await client.request("PATCH", "/api/views/form", headers: incoming, body: #"{"phone": "1861"}"#).status == 200)
            let spans = tracer.finishedSpans.filter { $0.traceID == "trace-from-the-client" }
            let request = try #require(spans.first { $0.operationName == "PATCH /api/views/{path}" })
            #expect(request.kind == .server && request.parentSpanID == "span-from-the-client")
            #expect(request.attributes["http.response.status_code"]?.toSpanAttribute() == .int64(200))
            let children = spans.filter { $0.parentSpanID == request.spanID }
            #expect(children.map(\.operationName) == ["apply", "store commit", "push"])
            #expect(
                children.allSatisfy {
                    $0.startInstant.nanosecondsSinceEpoch >= request.startInstant.nanosecondsSinceEpoch
                        && $0.endInstant.nanosecondsSinceEpoch <= request.endInstant.nanosecondsSinceEpoch
                })
            // Every request has its span, a read too (a new trace without a traceparent).
            _ = try await client.request("GET", "/api/views/form")
            #expect(tracer.finishedSpans.contains { $0.operationName == "GET /api/views/{path}" && $0.parentSpanID == nil })
        }
    }

    /// The phase names of an answer's `Server-Timing`, in order.
    static func phases(_ response: RawHTTPResponse) -> [String] {
        (response.header("Server-Timing") ?? "").split(separator: ",").map {
            String($0.split(separator: ";")[0].trimmingCharacters(in: .whitespaces))
        }
    }

    /// The phases' durations in milliseconds.
    static func durations(_ response: RawHTTPResponse) throws -> [String: Double] {
        var durations: [String: Double] = [:]
        for entry in (response.header("Server-Timing") ?? "").split(separator: ",") {
            let parts = entry.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces) }
            let value = try #require(parts.last.flatMap { $0.hasPrefix("dur=") ? Double($0.dropFirst(4)) : nil })
            durations[parts[0]] = value
        }
        return durations
    }
}

/// One text, with a budget no write can keep (commit within 0 s) and one every write keeps
/// (pushed within an hour).
@Observable
final class NoteViewModel: ViewModel {
    var text = ""
    let commandStates = CommandStates()

    static let declaration = ViewModelDeclaration<NoteViewModel>(
        "Note", summary: "A note, for the latency tests.", inputs: [.string("text", \.text, maxLength: 100)]
    )
    .latencyBudget(.writeToCommit(.zero))
    .latencyBudget(.writeToPush(.seconds(3600), percentile: 99.9))

    /// An app of one `notes` screen.
    static let app: TestServer.AppFactory = { _ in BinderyApp(screens: [Screen("notes", title: "Notes") { NoteViewModel() }]) }
}
