import BinderyTestSupport
import Foundation
import Testing

@testable import BinderyStore

/// The backends every contract test runs against. PostgreSQL is a real server started by
/// ``PostgresServer``, a new database per store; a server that cannot start fails those tests.
enum Backend: String, CaseIterable, CustomTestStringConvertible {
    case memory
    case sqlite
    case postgres

    var testDescription: String { rawValue }

    func makeStore(logPolicy: VersionLogPolicy = VersionLogPolicy()) async throws -> any SessionStateStore {
        switch self {
        case .memory: MemoryStore(logPolicy: logPolicy)
        case .sqlite: try SQLiteStore.inMemory(logPolicy: logPolicy)
        case .postgres: try await makePostgresStore(logPolicy: logPolicy)
        }
    }
}

/// A PostgreSQL store on a new database of the test server, or on `url` (a second node).
func makePostgresStore(
    url: String? = nil, logPolicy: VersionLogPolicy = VersionLogPolicy(), nodeID: String = PostgresStoreOptions.randomNodeID()
) async throws -> PostgresStore {
    let server = try await PostgresServer.shared()
    let databaseURL = if let url { url } else { try await server.makeDatabase() }
    let options = PostgresStoreOptions(
        nodeID: nodeID, maximumConnections: 4, reconnectDelay: .milliseconds(50), maximumReconnectDelay: .milliseconds(400)
    )
    return try await PostgresStore(url: databaseURL, logPolicy: logPolicy, options: options)
}

/// A fixed start time; tests move time by adding seconds to it.
let t0 = Date(timeIntervalSinceReferenceDate: 800_000_000.125)

func at(_ seconds: TimeInterval) -> Date {
    t0.addingTimeInterval(seconds)
}

/// A token hash made of one repeated byte: distinct, ordered and readable in failures.
func tokenHash(_ byte: UInt8) -> SessionTokenHash {
    SessionTokenHash(bytes: Data(repeating: byte, count: SessionTokenHash.byteCount))!
}

func key(_ byte: UInt8, _ path: String = "form") -> ViewModelKey {
    ViewModelKey(session: tokenHash(byte), path: path)
}

func bytes(_ text: String) -> Data {
    Data(text.utf8)
}

/// A write whose state and snapshot name the version, so a test can tell them apart.
func write(
    _ key: ViewModelKey, expected: Int?, version: Int, at time: Date = t0, logged: Bool = true,
    command: DeferredCommand? = nil
) -> ViewModelWrite {
    ViewModelWrite(
        key: key, expected: expected, version: version, state: bytes("{\"v\":\(version)}"),
        snapshot: logged ? bytes("snapshot \(version)") : nil, runningCommand: command, at: time
    )
}

/// The versions in a history, or `nil` when the log does not reach back.
func versionNumbers(_ history: VersionHistory) -> [Int]? {
    switch history {
    case .versions(let entries): entries.map(\.version)
    case .unavailable: nil
    }
}

/// A fresh temporary directory, removed after `body`.
func withTemporaryDirectory(_ body: (URL) async throws -> Void) async throws {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("bindery-store-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    try await body(directory)
}
