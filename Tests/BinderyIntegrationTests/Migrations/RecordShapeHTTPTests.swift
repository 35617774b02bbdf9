import Bindery
import BinderyStore
import Foundation
import Logging
import Testing

/// A shared collection's records across a deploy that renames a field of its record type: read
/// through the record type's migration, or the start stops and every record stays as it was.
///
/// Budget: about 1 s.
@Suite("Record shapes across deploys")
struct RecordShapeHTTPTests {
    static func serve<Note: BoardNote, T>(
        _ type: Note.Type, on file: PersistedShapeHTTPTests.StoreFile, _ body: (Int) async throws -> T
    ) async throws -> T {
        let notes = SharedCollection<Note>("notes")
        return try await DeployedServer.serve(on: try SQLiteStore(path: file.path)) { _ in
            BinderyApp(screens: [Screen("board", title: "Board") { Board(notes: notes) }], sharedModels: [notes])
        } _: {
            try await body($0)
        }
    }

    @Test func renamedRecordFieldsAreMigratedOrStopTheStartKeepingEveryRecord() async throws {
        let file = PersistedShapeHTTPTests.StoreFile()
        try await Self.serve(NoteV1.self, on: file) { port in
            let client = try await PersistedShapeHTTPTests.newSession(port)
            for words in ["buy film", "mix D-76"] {
                let added = try await client.request(
                    "POST", "/api/views/board/commands/add", headers: ["Prefer": "wait=10"], body: #"{"words": "\#(words)"}"#
                )
                #expect(added.status == 200)
            }
        }
        do {
            try await Self.serve(NoteV2Unmigrated.self, on: file) { _ -> Void in Issue.record("the server started") }
        } catch let refusal as StoredStateRefusal {
            let line = refusal.lines.joined(separator: "\n")
            #expect(refusal.lines.count == 1, "\(line)")
            #expect(line.contains("shared model notes"), "\(line)")
            #expect(line.contains("2 stored states"), "\(line)")
            #expect(line.contains("persistedMigrations"), "\(line)")
        }
        try await Self.serve(NoteV2.self, on: file) { port in
            let read = try await PersistedShapeHTTPTests.newSession(port).request("GET", "/api/views/board")
            #expect(read.output("notes") == .array(["buy film", "mix D-76"]), "every title became a text")
        }
    }
}
