import BinderyRuntime
import BinderyStore
import Foundation
import Testing

/// `GET /api/views/{path}/versions` (the inspector's timeline) and the catalogue's
/// `sensitiveInputs`.
@Suite("Version history and sensitive inputs over HTTP")
struct VersionsHTTPTests {
    @Test func theLogsVersionsComeOldestFirstWithTheCurrentLast() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("bindery-versions-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        for store: any SessionStateStore in [MemoryStore(), try SQLiteStore(path: directory.appendingPathComponent("v.sqlite").path)] {
            try await TestServer.with(store: store) { server in
                let client = try await server.newSession()
                _ = try await client.request("GET", "/api/views/form")
                for body in [#"{"phone": "18612345678"}"#, #"{"password": "passw0rd"}"#] {
                    #expect(try await client.request("PATCH", "/api/views/form", body: body).status == 200)
                }
                let history = try await client.request("GET", "/api/views/form/versions")
                #expect(history.status == 200)
                #expect(history.header("Cache-Control") == "no-store")
                #expect(history.json["version"] == 3)
                let versions = try #require(history.json["versions"]?.arrayValue)
                #expect(versions.compactMap { $0.objectValue?["version"]?.intValue } == [1, 2, 3])
                let second = try #require(versions[1].objectValue)
                #expect(second["snapshot"]?.objectValue?["inputs"]?.objectValue?["phone"] == "18612345678")
                #expect(second["snapshot"]?.objectValue?["version"] == 2)
                #expect(second["at"]?.stringValue.flatMap { try? Date($0, strategy: .iso8601) } != nil)
                // Whole seconds, UTC: what generated clients' default date decoding reads.
                #expect(second["at"]?.stringValue?.wholeMatch(of: /\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ/) != nil)

                #expect(try await client.request("GET", "/api/views/nowhere/versions").status == 404)
                let posted = try await client.request("POST", "/api/views/form/versions")
                #expect(posted.status == 405 && posted.header("Allow") == "GET, HEAD")
                // Another session's history is not this one's.
                let other = try await server.newSession()
                let theirs = try await other.request("GET", "/api/views/form/versions")
                #expect(theirs.json["versions"]?.arrayValue?.count == 1)
            }
        }
    }

    @Test func theCatalogueNamesTheInputsToolsMask() async throws {
        try await TestServer.with { server in
            let views = try #require(try await server.anonymousClient().request("GET", "/api/views").json["views"]?.arrayValue)
            let sensitive = Dictionary(
                uniqueKeysWithValues: views.compactMap { view -> (String, [JSONValue])? in
                    guard let object = view.objectValue, let name = object["name"]?.stringValue else { return nil }
                    return (name, object["sensitiveInputs"]?.arrayValue ?? [.null])
                })
            #expect(sensitive == ["form": ["password"], "list": [], "gallery": [], "courses": [], "recipes": []])
            let children = views.flatMap { $0.objectValue?["children"]?.arrayValue ?? [] }
            #expect(!children.isEmpty && children.allSatisfy { $0.objectValue?["sensitiveInputs"] == [] })
        }
    }
}
