import BinderyRuntime
import BinderyTesting
import Foundation
import Observation
import Testing

/// A shelf of books: the value types a persisted shape is derived from.
struct ShelfBook: Codable, Sendable, Equatable {
    var title: String
    var pages: Int
    var read: Bool?
    var added: Date
    var tags: [String]
}

@Observable
final class ShelfViewModel: ViewModel {
    var owner = ""
    var books: [ShelfBook] = []
    let commandStates = CommandStates()

    static let declaration = ViewModelDeclaration<ShelfViewModel>(
        "Shelf", summary: "Books.",
        inputs: [.string("owner", \.owner, maxLength: 20)],
        outputs: [.integer("count") { $0.books.count }],
        persists: .inputs(and: [.value("books", \.books)]).migrations([
            .renaming("shelf", to: "books"),
            .updating("books") { books in
                .array(
                    (books.arrayValue ?? []).map { book in
                        guard case .object(var fields) = book else { return book }
                        fields["tags"] = fields["tags"] ?? []
                        return .object(fields)
                    })
            },
        ])
    )
}

/// A view model whose one migration always fails.
@Observable
final class BrokenShelfViewModel: ViewModel {
    let commandStates = CommandStates()
    struct Broken: Error {}

    static let declaration = ViewModelDeclaration<BrokenShelfViewModel>(
        "BrokenShelf", summary: "Nothing.", persists: .inputs(and: []).migrations([PersistedMigration("breaks") { _ in throw Broken() }])
    )
}

@Suite("Persisted shapes")
struct PersistedShapeTests {
    let shape = ShelfViewModel.declaration.persistedShape
    let book: JSONValue = ["title": "Dune", "pages": 412, "added": 0, "tags": ["sf"]]

    @Test func theShapeIsDerivedFromTheInputsAndTheValueTypes() {
        #expect(shape.version == 3, "two migrations: version 3")
        #expect(!shape.isOpaque)
        #expect(shape.fingerprint.count == 16)
        #expect(shape.fingerprint == ShelfViewModel.declaration.persistedShape.fingerprint, "the same every time")
    }

    @Test func eachMigrationDoesWhatItSays() throws {
        let renamed = try PersistedMigration.renaming("shelf", to: "books").migrate(["shelf": [], "owner": "ada"])
        #expect(renamed == ["books": [], "owner": "ada"])
        #expect(try PersistedMigration.renaming("shelf", to: "books").migrate(["owner": "ada"]) == ["owner": "ada"])
        #expect(try PersistedMigration.removing("shelf").migrate(["shelf": [], "owner": "ada"]) == ["owner": "ada"])
        let updated = try PersistedMigration.updating("n") { .int(($0.intValue ?? 0) + 1) }.migrate(["n": 1])
        #expect(updated == ["n": 2])
    }

    @MainActor @Test func stateFromVersionOneIsReadThroughEveryMigration() throws {
        let old: JSONValue = ["owner": "ada", "shelf": [["title": "Dune", "pages": 412, "added": 0]]]
        let read = try shape.read(old, storedAtVersion: 1)
        #expect(read == ["owner": "ada", "books": [["title": "Dune", "pages": 412, "added": 0, "tags": []]]])
        let tester = try ViewModelTester(ShelfViewModel(), restoring: old, storedAtVersion: 1) { #expect($0.outputs["count"] == 1) }
        #expect(tester.persistedState == read, "restored whole")
    }

    @Test func whatWouldLoseAMemberIsRefusedNamingIt() {
        // A member no declaration keeps.
        #expect(
            throws: PersistedStateError.unreadable(
                storedVersion: 3, member: "shelves", reason: "is stored but no longer declared: reading it would drop it"
            )
        ) { try shape.read(["owner": "ada", "books": [], "shelves": 2], storedAtVersion: 3) }
        // A field the value type does not have any more (dropped on decoding).
        #expect {
            try shape.read(["books": [book.merging(["isbn": "0441013597"])]], storedAtVersion: 3)
        } throws: { ($0 as? PersistedStateError)?.member == "books" && "\($0)".contains(".isbn") }
        // A field the type needs and the state lacks.
        #expect {
            try shape.read(["books": [["title": "Dune", "pages": 412, "added": 0]]], storedAtVersion: 3)
        } throws: { "\($0)".contains("no `tags`") }
        // A value its input no longer accepts.
        #expect { try shape.read(["owner": .string(String(repeating: "a", count: 30))], storedAtVersion: 3) } throws: {
            ($0 as? PersistedStateError)?.member == "owner"
        }
        // Written by a newer build.
        #expect(throws: PersistedStateError.newer(storedVersion: 4, knownVersion: 3)) { try shape.read([:], storedAtVersion: 4) }
        // Optional fields missing and stored nulls lose nothing.
        #expect(throws: Never.self) { try shape.read(["books": [book], "owner": .null], storedAtVersion: 3) }
    }

    @Test func aMigrationThatThrowsStopsTheRead() {
        #expect(throws: PersistedStateError.migrationFailed(storedVersion: 1, migration: "breaks", reason: "Broken()")) {
            try BrokenShelfViewModel.declaration.persistedShape.read([:], storedAtVersion: 1)
        }
    }

    @Test func lossComparesValuesNotSpelling() {
        #expect(JSONValue.int(1).loss(of: .double(1.0)) == nil)
        #expect(JSONValue.object(["a": 1, "b": 2]).loss(of: ["a": 1]) == nil, "a new member loses nothing")
        #expect(JSONValue.object(["a": 1]).loss(of: ["a": 1, "b": 2]) == ".b")
        #expect(JSONValue.array([1]).loss(of: [1, 2]) == "[]")
        #expect(JSONValue.object(["a": [["x": 1]]]).loss(of: ["a": [["x": 1, "y": 2]]]) == ".a[0].y")
    }
}

extension JSONValue {
    fileprivate func merging(_ other: [String: JSONValue]) -> JSONValue {
        guard case .object(var members) = self else { return self }
        members.merge(other) { _, new in new }
        return .object(members)
    }
}
