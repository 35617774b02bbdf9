import Bindery
import BinderyStore
import Foundation
import Logging
import Testing

/// A deploy that changes what a view model persists, over real servers on one SQLite file: the
/// renamed member of issue 39 (`count` → `total`, each item's `title` → `text`), with and
/// without its migration, set aside and put back, and state a newer build wrote.
///
/// Budget: about 2 s (servers on SQLite files, nothing waits).
@Suite("Persisted shapes across deploys")
struct PersistedShapeHTTPTests {
    /// A SQLite file in a fresh temporary directory, removed after the test.
    final class StoreFile {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("bindery-shapes-\(UUID().uuidString)")
        var path: String { directory.appendingPathComponent("tally.sqlite").path }
        deinit { try? FileManager.default.removeItem(at: directory) }
    }

    /// Serves the tally `make` builds on `file` and runs `body`; the server is always shut down.
    static func serve<Model: ViewModel, T>(
        _ make: @escaping @Sendable () -> Model, on file: StoreFile, unreadable: UnreadableStoredState = .refuseToStart,
        _ body: (Int) async throws -> T
    ) async throws -> T {
        try await DeployedServer.serve(on: try SQLiteStore(path: file.path), configure: { $0.unreadableStoredState = unreadable }) { _ in
            BinderyApp(screens: [Screen("tally", title: "Tally", make: make)])
        } _: {
            try await body($0)
        }
    }

    /// Three sessions of the first build, with 1, 2 and 3 items; their tokens and ETags.
    static func firstBuildSessions(on file: StoreFile) async throws -> [(token: String, etag: String)] {
        try await serve(TallyV1.init, on: file) { port in
            var sessions: [(String, String)] = []
            for count in 1...3 {
                let client = try await newSession(port)
                _ = try await client.request("PATCH", "/api/views/tally", body: #"{"label": "tally \#(count)"}"#)
                var answer = try await client.request("GET", "/api/views/tally")
                for _ in 0..<count { answer = try await client.request("POST", "/api/views/tally/commands/add") }
                answer = try await client.request("GET", "/api/views/tally")
                #expect(answer.output("count") == .int(count))
                sessions.append((client.token ?? "", answer.header("ETag") ?? ""))
            }
            return sessions
        }
    }

    static func newSession(_ port: Int) async throws -> HTTPTestClient {
        let created = try await HTTPTestClient(port: port).request("POST", "/api/sessions")
        return HTTPTestClient(port: port, token: created.json["token"]?.stringValue)
    }

    @Test func aRenameWithItsMigrationCarriesEverySessionsDataUnderANewVersion() async throws {
        let file = StoreFile()
        let sessions = try await Self.firstBuildSessions(on: file)
        let versions = try await Self.serve(TallyV2.init, on: file) { port in
            var versions: [Int] = []
            for (index, session) in sessions.enumerated() {
                let client = HTTPTestClient(port: port, token: session.token)
                let read = try await client.request("GET", "/api/views/tally")
                #expect(read.status == 200)
                #expect(read.output("count") == .int(index + 1), "count was migrated to total")
                #expect(read.output("items") == .array((1...(index + 1)).map { .string("item \($0)") }), "titles became texts")
                #expect(read.input("label") == .string("tally \(index + 1)"))
                #expect(read.header("ETag") != session.etag, "migrated state never shows under the old ETag")
                let conditional = try await client.request("GET", "/api/views/tally", headers: ["If-None-Match": session.etag])
                #expect(conditional.status == 200, "a client holding the old version gets the new one, not 304")
                versions.append(read.version ?? 0)
            }
            return versions
        }
        // The migrated version was committed with the new shape: a later start reads it as it is.
        try await Self.serve(TallyV2.init, on: file) { port in
            for (index, session) in sessions.enumerated() {
                let read = try await HTTPTestClient(port: port, token: session.token).request("GET", "/api/views/tally")
                #expect(read.version == versions[index])
                #expect(read.output("count") == .int(index + 1))
            }
        }
    }

    @Test func aRenameWithoutAMigrationStopsTheStartWithOneLineAndKeepsEverything() async throws {
        let file = StoreFile()
        let sessions = try await Self.firstBuildSessions(on: file)
        do {
            try await Self.serve(TallyV2Unmigrated.init, on: file) { _ -> Void in Issue.record("the server started") }
        } catch let refusal as StoredStateRefusal {
            #expect(refusal.lines.count == 1, "one line for the one view model: \(refusal.lines)")
            let line = refusal.lines.first ?? ""
            #expect(line.contains("view model Tally at tally, 3 stored states"), "\(line)")
            #expect(line.contains("persisted version 1"), "\(line)")
            #expect(line.contains("`count`") && line.contains(#".renaming("count", to: "total")"#), "\(line)")
            #expect(line.contains("add a migration"), "\(line)")
        }
        // Nothing was read, dropped or written: the old build still has it all, and the new one
        // with its migration reads it.
        try await Self.serve(TallyV1.init, on: file) { port in
            let read = try await HTTPTestClient(port: port, token: sessions[2].token).request("GET", "/api/views/tally")
            #expect(read.output("count") == .int(3))
            #expect(read.header("ETag") == sessions[2].etag)
        }
        try await Self.serve(TallyV2.init, on: file) { port in
            let read = try await HTTPTestClient(port: port, token: sessions[1].token).request("GET", "/api/views/tally")
            #expect(read.output("items") == .array([.string("item 1"), .string("item 2")]))
        }
    }

    @Test func setAsideStateIsCountedAndALaterDeployWithTheMigrationPutsItBack() async throws {
        let file = StoreFile()
        let sessions = try await Self.firstBuildSessions(on: file)
        try await Self.serve(TallyV2Unmigrated.init, on: file, unreadable: .setAside) { port in
            let metrics = try await HTTPTestClient(port: port).request("GET", "/metrics")
            #expect(metrics.text.contains("bindery_stored_states_set_aside 3"), "\(metrics.text.prefix(200))")
            let client = HTTPTestClient(port: port, token: sessions[0].token)
            let fresh = try await client.request("GET", "/api/views/tally")
            #expect(fresh.status == 200)
            #expect(fresh.output("count") == .int(0), "the session starts the tally afresh")
            // This session writes a new tally: its set-aside one must not be put back over it.
            let added = try await client.request("POST", "/api/views/tally/commands/add")
            #expect(added.status == 200)
        }
        try await Self.serve(TallyV2.init, on: file) { port in
            let written = try await HTTPTestClient(port: port, token: sessions[0].token).request("GET", "/api/views/tally")
            #expect(written.output("count") == .int(1), "what was written since stays")
            let putBack = try await HTTPTestClient(port: port, token: sessions[2].token).request("GET", "/api/views/tally")
            #expect(putBack.output("count") == .int(3), "the set-aside tally was put back and migrated")
            #expect(putBack.output("items") == .array([.string("item 1"), .string("item 2"), .string("item 3")]))
            let metrics = try await HTTPTestClient(port: port).request("GET", "/metrics")
            #expect(metrics.text.contains("bindery_stored_states_set_aside 1"), "one stays aside: its session wrote since")
        }
    }

    @Test func stateANewerBuildWroteIsRefused503AndNeverWrittenOver() async throws {
        let file = StoreFile()
        let sessions = try await Self.firstBuildSessions(on: file)
        try await Self.serve(TallyV2.init, on: file) { port in
            let client = HTTPTestClient(port: port, token: sessions[0].token)
            let added = try await client.request("POST", "/api/views/tally/commands/add")
            #expect(added.status == 200)
        }
        // A rollback to the first build: it starts (newer state is not its to judge) and refuses
        // that view model, reads and writes alike.
        try await Self.serve(TallyV1.init, on: file) { port in
            let client = HTTPTestClient(port: port, token: sessions[0].token)
            let read = try await client.request("GET", "/api/views/tally")
            #expect(read.status == 503)
            #expect(read.header("Retry-After") == "2")
            #expect(read.json["title"] == "Stored by a newer version")
            let write = try await client.request("POST", "/api/views/tally/commands/add")
            #expect(write.status == 503)
            let untouched = try await HTTPTestClient(port: port, token: sessions[1].token).request("GET", "/api/views/tally")
            #expect(untouched.output("count") == .int(2), "a session the newer build never read is still the first build's")
        }
        try await Self.serve(TallyV2.init, on: file) { port in
            let read = try await HTTPTestClient(port: port, token: sessions[0].token).request("GET", "/api/views/tally")
            #expect(read.output("count") == .int(2), "the newer build's write survived the rollback")
        }
    }
}
