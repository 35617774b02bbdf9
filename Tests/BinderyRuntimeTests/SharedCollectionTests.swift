@testable import BinderyRuntime
import Foundation
import Observation
import Synchronization
import Testing

/// A record for these tests.
struct Note: SharedRecord {
    var id: String
    var version = 1
    var title: String
    var body = ""
}

/// The first-start notes.
let firstNotes = [Note(id: "a", title: "First"), Note(id: "b", title: "Second")]

/// `note` as a storage holds it.
func stored(_ note: Note) -> StoredRecord {
    StoredRecord(id: note.id, version: note.version, state: try? JSONEncoder().encode(note))
}

/// The shared-model layer: durable before visible, versions, conditional and concurrent changes.
@Suite("Shared collections", .timeLimit(.minutes(1)))
struct SharedCollectionTests {
    func openCollection() async throws -> (SharedCollection<Note>, MemoryRecordStorage) {
        let storage = MemoryRecordStorage()
        let notes = SharedCollection<Note>("notes", firstStart: firstNotes)
        try await notes.open(storage)
        return (notes, storage)
    }

    @Test func firstStartStoresTheFirstStartRecordsOnce() async throws {
        let (notes, storage) = try await openCollection()
        #expect(notes.records.map(\.id) == ["a", "b"])
        #expect(try await storage.loadAll().map(\.version) == [1, 1])
        try await notes.delete(id: "a")
        try await notes.delete(id: "b")
        // Everything deleted is not a first start: nothing comes back.
        let reopened = SharedCollection<Note>("notes", firstStart: firstNotes)
        try await reopened.open(storage)
        #expect(reopened.records.isEmpty)
    }

    @Test func everyChangeRaisesTheVersionByOneAndIsStoredFirst() async throws {
        let (notes, storage) = try await openCollection()
        let renamed = try await notes.update(id: "a") { $0.title = "Renamed" }
        #expect(renamed.version == 2)
        let record = try await storage.loadAll().first { $0.id == "a" }
        #expect(record?.version == 2)
        #expect(try record?.state.map { try JSONDecoder().decode(Note.self, from: $0) }?.title == "Renamed")
        #expect(notes.record(id: "a")?.title == "Renamed")
    }

    @Test func addNamesTheRecordAndStartsItsVersionAtOne() async throws {
        let storage = MemoryRecordStorage()
        let notes = SharedCollection<Note>("notes", makeID: { "n1" })
        try await notes.open(storage)
        let added = try await notes.add { Note(id: $0, title: "New") }
        #expect(added.id == "n1" && added.version == 1)
        #expect(notes.record(id: "n1") == added)
        await #expect(throws: SharedRecordError.conflict(id: "n1")) { try await notes.add { Note(id: $0, title: "Again") } }
    }

    @Test func aChangeThatChangesNothingCommitsNothing() async throws {
        let (notes, _) = try await openCollection()
        let same = try await notes.update(id: "a") { $0.title = "First" }
        #expect(same.version == 1)
    }

    @Test func aFailedCommitChangesNothing() async throws {
        let (notes, storage) = try await openCollection()
        storage.setFailing(true)
        await #expect(throws: SharedRecordError.self) { try await notes.update(id: "a") { $0.title = "lost" } }
        await #expect(throws: SharedRecordError.self) { try await notes.add { Note(id: $0, title: "lost") } }
        #expect(notes.record(id: "a")?.title == "First")
        #expect(notes.record(id: "a")?.version == 1)
        #expect(notes.records.count == 2)
        storage.setFailing(false)
        #expect(try await notes.update(id: "a") { $0.title = "kept" }.version == 2)
    }

    @Test func aConditionalChangeOfAStaleVersionIsRefused() async throws {
        let (notes, _) = try await openCollection()
        try await notes.update(id: "a") { $0.body = "first" }
        await #expect(throws: SharedRecordError.stale(id: "a", current: 2)) {
            try await notes.update(id: "a", expectedVersion: 1) { $0.body = "second" }
        }
        #expect(notes.record(id: "a")?.body == "first")
    }

    @Test func plainChangesKeepEachOthersFields() async throws {
        let (notes, _) = try await openCollection()
        async let title = notes.update(id: "a") { $0.title = "A" }
        async let body = notes.update(id: "a") { $0.body = "B" }
        _ = try await (title, body)
        let note = try #require(notes.record(id: "a"))
        #expect(note.title == "A" && note.body == "B")
        #expect(note.version == 3)
    }

    @Test func aWriteThatAnotherNodeBeatReloadsAndLandsOnItsVersion() async throws {
        let (notes, storage) = try await openCollection()
        var elsewhere = firstNotes[0]
        elsewhere.version = 2
        elsewhere.body = "from another node"
        try await storage.write(stored(elsewhere), replacing: 1)
        // Planned on version 1, refused by the storage, planned again on version 2: both kept.
        let mine = try await notes.update(id: "a") { $0.title = "mine" }
        #expect(mine.version == 3)
        #expect(notes.record(id: "a")?.title == "mine")
        #expect(notes.record(id: "a")?.body == "from another node")
        // A conditional write planned on the version another node replaced is refused as stale.
        var again = try #require(notes.record(id: "a"))
        again.version = 4
        again.body = "newer still"
        try await storage.write(stored(again), replacing: 3)
        await #expect(throws: SharedRecordError.stale(id: "a", current: 4)) {
            try await notes.update(id: "a", expectedVersion: 3) { $0.title = "late" }
        }
        #expect(notes.record(id: "a")?.body == "newer still")
    }

    @Test func aRefreshShowsWhatAnotherNodeCommitted() async throws {
        let (notes, storage) = try await openCollection()
        var elsewhere = firstNotes[1]
        elsewhere.version = 2
        elsewhere.title = "theirs"
        try await storage.write(stored(elsewhere), replacing: 1)
        await notes.refresh(id: "b", toVersion: 2)
        #expect(notes.record(id: "b")?.title == "theirs")
        try await storage.write(StoredRecord(id: "b", version: 3, state: nil), replacing: 2)
        await notes.refresh()
        #expect(!notes.contains(id: "b"))
    }

    @Test func observersHearAChangeAfterItIsVisible() async throws {
        let (notes, _) = try await openCollection()
        let seen = Mutex<String?>(nil)
        withObservationTracking {
            _ = notes.record(id: "a")
        } onChange: {
            // Called on the committing task: the new value is already readable.
            seen.withLock { $0 = notes.record(id: "a")?.title }
        }
        try await notes.update(id: "a") { $0.title = "observed" }
        #expect(seen.withLock { $0 } == "observed")
    }

    @Test func deletedRecordsAreGoneAndCannotBeChanged() async throws {
        let (notes, _) = try await openCollection()
        try await notes.delete(id: "b")
        #expect(notes.record(id: "b") == nil)
        #expect(!notes.contains(id: "b"))
        await #expect(throws: SharedRecordError.notFound(id: "b")) { try await notes.update(id: "b") { $0.title = "x" } }
        await #expect(throws: SharedRecordError.notFound(id: "b")) { try await notes.delete(id: "b") }
    }

    @Test func anUnopenedCollectionIsEmptyAndRefusesChanges() async throws {
        let notes = SharedCollection<Note>("notes", firstStart: firstNotes)
        #expect(notes.records.isEmpty)
        await #expect(throws: SharedRecordError.self) { try await notes.update(id: "a") { $0.title = "x" } }
    }
}

/// Two nodes starting together on one empty store both try the first start: neither fails.
@Suite("Shared collection first start")
struct SharedCollectionFirstStartTests {
    @Test func aFirstStartRaceIsNotAFailure() async throws {
        // This node found the store empty, but another node stored `a` before this one could.
        let storage = LateStorage(MemoryRecordStorage(preloaded: [stored(firstNotes[0])]))
        let notes = SharedCollection<Note>("notes", firstStart: firstNotes)
        try await notes.open(storage)
        #expect(notes.records.map(\.id) == ["a", "b"])
        #expect(try await storage.loadAll().map(\.version) == [1, 1])
    }

    @Test func aRecordStoredByAnotherNodeDuringFirstStartIsKept() async throws {
        // The store already holds `a` (another node got there first), so this is not a first start.
        let notes = SharedCollection<Note>("notes", firstStart: firstNotes)
        try await notes.open(MemoryRecordStorage(preloaded: [stored(firstNotes[0])]))
        #expect(notes.records.map(\.id) == ["a"])
    }
}

/// A storage whose first `loadAll` answers nothing: what a node sees when another node stores
/// the first-start records right after it looked.
final class LateStorage: SharedRecordStorage {
    private let inner: MemoryRecordStorage
    private let looked = Mutex(false)

    init(_ inner: MemoryRecordStorage) { self.inner = inner }

    func loadAll() async throws(SharedStorageError) -> [StoredRecord] {
        if !looked.withLock({ $0 }) {
            looked.withLock { $0 = true }
            return []
        }
        return try await inner.loadAll()
    }

    func write(_ record: StoredRecord, replacing expected: Int?) async throws(SharedStorageError) {
        try await inner.write(record, replacing: expected)
    }

    func changes(of id: String, after version: Int) async throws(SharedStorageError) -> [LoggedChange]? {
        try await inner.changes(of: id, after: version)
    }
}
