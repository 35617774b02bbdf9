import BinderyTesting
import Counter
import Foundation
import Testing

/// The Counter's stored-state corpus: a counter as today's build stores it
/// (`StoredState/counter-v1.json`, written once with `BINDERY_RECORD_STORED_STATE=1 swift test`
/// and committed). Every later build must read it back whole, through the migrations its
/// declaration lists by then: change what the Counter persists without one and this fails, as a
/// server's start would.
@MainActor
struct StoredCounterTests {
    static let corpus = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("StoredState/counter-v1.json")

    /// A stored state with the version and fingerprint of the shape that wrote it.
    struct Stored: Codable {
        var version: Int
        var fingerprint: String
        var state: JSONValue
    }

    @Test func aCounterStoredByTheFirstBuildIsReadWhole() async throws {
        if ProcessInfo.processInfo.environment["BINDERY_RECORD_STORED_STATE"] == "1" {
            let counter = ViewModelTester(CounterViewModel())
            try await counter.write(["step": 2]) { $0.inputs["step"] = 2 }
            for count in [2, 4, 6] {
                try counter.execute("increment") {
                    $0.outputs = ["count": .int(count), "parity": "even"]
                    $0.commands["decrement"]?.enabled = true
                }
            }
            let shape = CounterViewModel.declaration.persistedShape
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
            try encoder.encode(Stored(version: shape.version, fingerprint: shape.fingerprint, state: counter.persistedState))
                .write(to: Self.corpus)
        }
        let stored = try JSONDecoder().decode(Stored.self, from: Data(contentsOf: Self.corpus))
        let restored = try ViewModelTester(CounterViewModel(), restoring: stored.state, storedAtVersion: stored.version) {
            #expect($0.outputs["count"] == 6)
            #expect($0.inputs["step"] == 2)
        }
        #expect(restored.persistedState == stored.state, "nothing lost, nothing added")
    }
}
