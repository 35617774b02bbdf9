import Bindery
import BinderyStore
import Foundation
import Logging
import SeedApps
import Testing

/// The stored-state corpus: what today's seed apps store (every screen used as a person would,
/// the recipes' records), written once by `BINDERY_RECORD_STORED_STATE=1 swift test --filter
/// StoredStateCorpusTests` into `Tests/Fixtures/stored-state/seed-apps.json` and committed. Every
/// later build loads it into a fresh SQLite file and starts on it: the start's check must read
/// every state (a changed shape needs its migration), and every session's screens must answer
/// with what was stored. Never edit the corpus by hand, nor re-record it to make a failure go
/// away: a failure is a deploy that would lose data.
///
/// Budget: about 2 s.
@Suite("The stored-state corpus of the seed apps")
struct StoredStateCorpusTests {
    static let corpus = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Fixtures/stored-state/seed-apps.json")
    /// The corpus's sealing key: its sealed password opens only with it.
    static let sealing = SealingKey(hex: String(repeating: "5e", count: 32))!

    /// One stored state of the corpus.
    struct Entry: Codable {
        /// The session's bearer token; empty for a record space (`space` names it in hex).
        var token: String
        var space: String?
        var path: String
        var version: Int
        var shape: String?
        var state: JSONValue
        /// The inputs its snapshot showed when recorded (view models only).
        var inputs: JSONValue?
    }

    static func serve<T>(_ file: String, recipes: RecipeBook, _ body: (Int) async throws -> T) async throws -> T {
        try await DeployedServer.serve(on: try SQLiteStore(path: file), configure: { $0.sealingKey = sealing }) { context in
            SeedApps(upstream: .fast, recipes: recipes, context: context).app
        } _: {
            try await body($0)
        }
    }

    @Test func everyRecordedStateIsReadByThisBuild() async throws {
        if ProcessInfo.processInfo.environment["BINDERY_RECORD_STORED_STATE"] == "1" { try await record() }
        let entries = try JSONDecoder().decode([Entry].self, from: Data(contentsOf: Self.corpus))
        #expect(entries.count >= 8, "the corpus holds every seed screen's state")
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("bindery-corpus-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let file = directory.appendingPathComponent("corpus.sqlite").path
        try await Self.load(entries, into: file)
        // The start reads every state through this build's declarations (it refuses to start on
        // one it cannot read), and each recorded screen answers with what was stored.
        try await Self.serve(file, recipes: .recipes(firstStart: [])) { port in
            for entry in entries where !entry.token.isEmpty {
                let read = try await HTTPTestClient(port: port, token: entry.token).request("GET", "/api/views/\(entry.path)")
                #expect(read.status == 200, "\(entry.path): \(read.text.prefix(300))")
                if let inputs = entry.inputs?.objectValue {
                    for (name, value) in inputs where name != "password" {
                        #expect(read.input(name) == value, "\(entry.path): input \(name)")
                    }
                }
            }
            let recipes = try await HTTPTestClient(port: port).request("GET", "/api/views/recipes")
            let stored = entries.filter { $0.token.isEmpty && $0.path.hasPrefix("recipes/") }.count
            #expect(recipes.status == 200)
            #expect(recipes.output("recipes")?.arrayValue?.count == stored, "every stored recipe record reads")
        }
    }

    /// Writes the corpus's states into the SQLite file at `file` as they were stored.
    static func load(_ entries: [Entry], into file: String) async throws {
        let store = try SQLiteStore(path: file)
        var created: Set<Data> = []
        for entry in entries {
            let key: SessionTokenHash
            if entry.token.isEmpty {
                key = try #require(SessionTokenHash(bytes: Data(hex: entry.space ?? "")))
                if created.insert(key.bytes).inserted { _ = try await store.createSession(key, at: .distantFuture, kind: .records) }
            } else {
                key = SessionTokenHash(token: entry.token)
                if created.insert(key.bytes).inserted { _ = try await store.createSession(key, at: Date()) }
            }
            try await store.commit([
                ViewModelWrite(
                    key: ViewModelKey(session: key, path: entry.path), expected: nil, version: entry.version,
                    state: Data(JSONWriter.bytes(of: entry.state)), snapshot: nil, at: Date(), shape: entry.shape
                )
            ])
        }
        try await store.close()
    }

    /// Uses every seed screen as a person would on a fresh file, then writes what was stored.
    func record() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("bindery-corpus-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let file = directory.appendingPathComponent("record.sqlite").path
        var tokens: [String] = []
        var inputs: [String: JSONValue] = [:]
        try await Self.serve(file, recipes: .recipes(firstStart: FirstStartRecipes.all)) { port in
            let created = try await HTTPTestClient(port: port).request("POST", "/api/sessions")
            let client = HTTPTestClient(port: port, token: created.json["token"]?.stringValue)
            tokens.append(client.token ?? "")
            let wait = ["Prefer": "wait=10"]
            _ = try await client.request("PATCH", "/api/views/form", body: #"{"phone": "13800000000", "password": "passw0rd"}"#)
            for screen in ["list", "courses", "gallery"] {
                _ = try await client.request("POST", "/api/views/\(screen)/commands/load", headers: wait)
            }
            let list = try await client.request("GET", "/api/views/list")
            if let first = list.output("items")?.arrayValue?.first?.objectValue?["id"]?.stringValue {
                _ = try await client.request("GET", "/api/views/list/items/\(first)")
            }
            _ = try await client.request("GET", "/api/views/courses/c03")
            _ = try await client.request("GET", "/api/views/gallery/photos/0")
            _ = try await client.request("GET", "/api/views/recipes")
            _ = try await client.request("GET", "/api/views/recipes/d76")
            _ = try await client.request("POST", "/api/views/recipes/d76/commands/startTimer")
            _ = try await client.request("POST", "/api/views/recipes/d76/timer/commands/next")
            _ = try await client.request("GET", "/api/views/favourites")
            for path in ["form", "list", "courses", "gallery", "recipes/d76/timer"] {
                inputs[path] = try await client.request("GET", "/api/views/\(path)").json["inputs"]
            }
        }
        let store = try SQLiteStore(path: file)
        var entries: [Entry] = []
        for group in try await store.storedShapes() {
            for record in try await store.storedStates(in: group) {
                let token = tokens.first { SessionTokenHash(token: $0) == record.key.session }
                entries.append(
                    Entry(
                        token: token ?? "", space: token == nil ? record.key.session.bytes.hex : nil, path: record.key.path,
                        version: record.version, shape: record.shape, state: try JSONValue(parsing: [UInt8](record.state)),
                        inputs: token == nil ? nil : inputs[record.key.path]
                    )
                )
            }
        }
        try await store.close()
        entries.sort { ($0.token, $0.path) < ($1.token, $1.path) }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        try encoder.encode(entries).write(to: Self.corpus)
    }
}

extension Data {
    /// Lower-case hex digits.
    var hex: String { map { String(format: "%02x", $0) }.joined() }

    /// The bytes `hex` spells; empty for anything else.
    init(hex: String) {
        var bytes: [UInt8] = []
        var index = hex.startIndex
        while index < hex.endIndex, let next = hex.index(index, offsetBy: 2, limitedBy: hex.endIndex),
            let byte = UInt8(hex[index..<next], radix: 16)
        {
            bytes.append(byte)
            index = next
        }
        self.init(bytes)
    }
}
