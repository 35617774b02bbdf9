@testable import BinderyStore
import Foundation
import Testing

@Suite("Operations over HTTP: metrics, health, OpenAPI")
struct MetricsHTTPTests {
    @Test func metricsCarryProcessFiguresAndWhatSessionsHold() async throws {
        try await TestServer.with { server in
            let client = try await server.newSession()
            let form = try await client.request("GET", "/api/views/form")
            let text = try await server.anonymousClient().request("GET", "/metrics").text
            func value(_ name: String) -> Double? {
                text.split(separator: "\n").first { $0.hasPrefix(name + " ") }.flatMap { Double($0.split(separator: " ")[1]) }
            }
            #expect((value("process_resident_memory_bytes") ?? 0) > 1_000_000)
            #expect((value("process_open_fds") ?? 0) > 2)
            #expect((value("process_max_fds") ?? 0) >= (value("process_open_fds") ?? .infinity))
            #expect(value("process_cpu_seconds_total") != nil)
            #expect((value("process_start_time_seconds") ?? 0) > 1_700_000_000)
            #expect(value("bindery_session_snapshot_bytes") == Double(form.body.count), "one session, one snapshot")
            #expect(value("bindery_session_snapshot_bytes_per_session") == Double(form.body.count))

        }
    }

    @Test func metricsCarryTheHeapInUseAndFree() async throws {
        try await TestServer.with { server in
            let text = try await server.anonymousClient().request("GET", "/metrics").text
            func value(_ series: String) -> Double? {
                text.split(separator: "\n").first { $0.hasPrefix(series + " ") }.flatMap { Double($0.split(separator: " ").last ?? "") }
            }
            #expect(text.contains("# TYPE process_heap_bytes gauge"))
            let inUse = try #require(value(#"process_heap_bytes{state="in_use"}"#))
            let free = try #require(value(#"process_heap_bytes{state="free"}"#))
            let virtual = try #require(value("process_virtual_memory_bytes"))
            // A running server holds at least a megabyte of Swift objects (metadata, the router,
            // the store), and the heap fits in the address space.
            #expect(inUse > 1_000_000)
            #expect(free >= 0)
            #expect(inUse + free < virtual)
        }
    }

    @Test func metricsCountRequestsCommandsSessionsStreamsAndUpstreamCalls() async throws {
        try await TestServer.with { server in
            let client = try await server.signedInSession(as: .lilei)  // an administrator changes the upstream
            _ = try await client.request("GET", "/api/views/form")
            _ = try await client.request("PATCH", "/api/views/form", body: #"{"phone": "18612345678", "password": "passw0rd"}"#)
            _ = try await client.request("POST", "/api/views/form/commands/clear")
            _ = try await client.request("PATCH", "/api/upstream", body: #"{"endpoints": {"travel": {"failureRate": 1}}}"#)
            let failed = try await client.request("POST", "/api/views/list/commands/load", headers: ["Prefer": "wait=10"])
            #expect(failed.status == 502)
            let stream = try await client.events("/api/views/form/events")
            _ = try await stream.next { _ in true }

            let metrics = try await server.anonymousClient().request("GET", "/metrics")
            #expect(metrics.status == 200)
            let text = metrics.text
            #expect(text.contains(#"bindery_http_requests_total{route="/api/views/{path}",method="GET",status="200"}"#))
            #expect(text.contains(#"bindery_command_executions_total{view_model="form",command="clear"} 1"#))
            #expect(!text.contains(#"bindery_command_failures_total{view_model="form""#))
            #expect(text.contains(#"bindery_command_failures_total{view_model="list",command="load"} 1"#))
            #expect(text.contains(#"bindery_upstream_failures_total{endpoint="travel"} 1"#))
            #expect(text.contains(#"bindery_command_executions_total{view_model="list",command="load"} 1"#))
            #expect(text.contains("bindery_sessions_live 1"))
            #expect(text.contains("bindery_event_streams_open 1"))
            #expect(text.contains(#"bindery_upstream_call_duration_seconds_count{endpoint="travel"} 1"#))
            #expect(text.contains("bindery_http_request_duration_seconds_bucket"))
            stream.close()
        }
    }

    @Test func metricsCountTheStoresTransactionsAndWrites() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("bindery-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = try SQLiteStore(path: directory.appendingPathComponent("b.sqlite").path)
        try await TestServer.with(store: store) { server in
            /// The three counts `/metrics` shows, and the store's own counts just before and after.
            func counts() async throws -> (shown: GroupCommitStatistics, before: GroupCommitStatistics, after: GroupCommitStatistics) {
                let before = store.statistics
                let text = try await server.anonymousClient().request("GET", "/metrics").text
                let after = store.statistics
                func value(_ name: String) throws -> Int {
                    let line = text.split(separator: "\n").first { $0.hasPrefix(name + " ") }
                    return try #require(line.flatMap { Int($0.split(separator: " ")[1]) }, "\(name) is missing")
                }
                var shown = GroupCommitStatistics()
                shown.transactions = try value("bindery_store_transactions_total")
                shown.operations = try value("bindery_store_write_operations_total")
                shown.failedTransactions = try value("bindery_store_failed_transactions_total")
                return (shown, before, after)
            }
            let first = try await counts()
            var clients: [HTTPTestClient] = []
            for _ in 0..<2 {
                let client = try await server.newSession()
                #expect(try await client.request("GET", "/api/views/form").status == 200)
                clients.append(client)
            }
            // Two PATCHes queued while the writer holds: they commit together, in one transaction.
            store.committer.hold()
            try await withThrowingTaskGroup(of: Int.self) { group in
                for (index, client) in clients.enumerated() {
                    group.addTask {
                        try await client.request("PATCH", "/api/views/form", body: #"{"phone": "1380000000\#(index)"}"#).status
                    }
                }
                await store.committer.waitUntilQueued(2)
                store.committer.release()
                for try await status in group { #expect(status == 200) }
            }
            let second = try await counts()
            // Each figure is the store's own (a background write may land between the reads).
            for (shown, before, after) in [first, second] {
                #expect((before.transactions...after.transactions).contains(shown.transactions))
                #expect((before.operations...after.operations).contains(shown.operations))
                #expect(shown.failedTransactions == 0)
            }
            // Each session's creation was answered only once committed, one after the other; the
            // two PATCHes shared a transaction: more writes than transactions.
            let transactions = second.shown.transactions - first.shown.transactions
            #expect(transactions >= 3)
            #expect(second.shown.operations - first.shown.operations > transactions)
        }
    }

    @Test func theMemoryStoreHasNoCommitsToCount() async throws {
        try await TestServer.with { server in
            let client = try await server.newSession()
            _ = try await client.request("PATCH", "/api/views/form", body: #"{"phone": "13800000000"}"#)
            let text = try await server.anonymousClient().request("GET", "/metrics").text
            #expect(text.contains("bindery_sessions_live"))
            #expect(!text.contains("bindery_store_transactions_total"))
        }
    }

    @Test func healthAndOpenAPI() async throws {
        try await TestServer.with { server in
            let client = server.anonymousClient()
            #expect(try await client.request("GET", "/healthz").status == 200)
            #expect(try await client.request("GET", "/readyz").status == 200)
            let document = try await client.request("GET", "/openapi.json")
            #expect(document.status == 200)
            #expect(document.json["openapi"] == "3.1.0")
        }
    }
}
