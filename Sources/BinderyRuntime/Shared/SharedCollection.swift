import Foundation
import Observation
import Synchronization

/// Records every session shares — a shared model (seed 003's Core Data layer under the C-41
/// recipes): kept in the server's store, versioned, followed across nodes, bound two-way to view
/// models, deletable while viewed.
///
/// Declare it once, list it in `BinderyApp.sharedModels` and hand it to the view models that
/// show or change it; the server opens it over its store before it serves:
///
/// ```swift
/// let notes = SharedCollection<Note>("notes", firstStart: [Note(id: "welcome", text: "Hello")])
/// let app = BinderyApp(screens: [Screen("notes", title: "Notes") { NotesViewModel(notes: notes) }],
///                      sharedModels: [notes])
/// ```
///
/// Reads are synchronous and report themselves to Observation, so a view model in any session
/// whose snapshot read a record is rendered again when the record changes. Changes are durable
/// before they are visible: each is committed to the store first, then applied (which notifies
/// every session). Changes run one at a time, and each raises the record's version by 1; a failed
/// commit changes nothing.
public final class SharedCollection<Record: SharedRecord>: SharedModel, Observable {
    private struct Contents {
        /// The live records by id.
        var records: [String: Record] = [:]
        /// The stored version of every id, deleted ones (tombstones) included.
        var versions: [String: Int] = [:]
        /// Where changes are committed; nil until the server opened the collection.
        var storage: (any SharedRecordStorage)?
    }

    /// The collection's name: its records are stored as `<name>/<id>`.
    public let name: String
    private let firstStart: [Record]
    private let contents = Mutex(Contents())
    private let registrar = ObservationRegistrar()
    private let queue = CommitQueue()
    private let makeID: @Sendable () -> String

    /// Declares a collection named `name`; when its store holds no record of it at all (first
    /// start), `firstStart` is stored. `makeID` names added records.
    public init(
        _ name: String, firstStart: [Record] = [], makeID: @escaping @Sendable () -> String = SharedCollection.randomID
    ) {
        self.name = name
        self.firstStart = firstStart
        self.makeID = makeID
    }

    /// A collection in memory, open at once, holding `records` (tests and throwaway runs).
    public static func inMemory(_ name: String, _ records: [Record]) -> SharedCollection {
        let collection = SharedCollection(name)
        let stored = records.map { StoredRecord(id: $0.id, version: $0.version, state: try? Self.encode($0)) }
        collection.contents.withLock { contents in
            contents.storage = MemoryRecordStorage(preloaded: stored)
            for record in stored { Self.install(record, into: &contents) }
        }
        return collection
    }

    /// `r` and 8 random hex digits: never `events` or `commands`, which address other things.
    @Sendable public static func randomID() -> String {
        let digits = String(UInt32.random(in: .min ... .max), radix: 16)
        return "r" + String(repeating: "0", count: 8 - digits.count) + digits
    }

    // MARK: Reading

    /// Every record, by id.
    public var records: [Record] {
        registrar.access(self, keyPath: \.records)
        return contents.withLock { Array($0.records.values) }.sorted { $0.id < $1.id }
    }

    /// The record `id`, or nil when there is none (never was, or deleted).
    public func record(id: String) -> Record? {
        registrar.access(self, keyPath: \.records)
        return contents.withLock { $0.records[id] }
    }

    /// Whether the record `id` exists, without reporting the read to Observation.
    public func contains(id: String) -> Bool {
        contents.withLock { $0.records[id] != nil }
    }

    // MARK: Changing

    /// Adds the record `make` builds for a new id; answers it once it is durable.
    public func add(_ make: @escaping @Sendable (_ id: String) -> Record) async throws(SharedRecordError) -> Record {
        var record = make(makeID())
        record.version = 1
        let id = record.id
        let result = await commit(id) { [record] current throws(SharedRecordError) in
            guard current == nil else { throw .conflict(id: id) }
            return record
        }
        guard let added = try result.get() else { throw .notFound(id: id) }
        return added
    }

    /// Changes the record `id` with `change` (applied to its current value, so changes to other
    /// fields made meanwhile are kept). With `expectedVersion`, only while the record is still at
    /// that version. A change that changes nothing commits nothing. Answers the new record.
    @discardableResult
    public func update(
        id: String, expectedVersion: Int? = nil,
        _ change: @escaping @Sendable (inout Record) throws(SharedRecordError) -> Void
    ) async throws(SharedRecordError) -> Record {
        let result = await commit(id) { current throws(SharedRecordError) in
            guard var record = current else { throw .notFound(id: id) }
            if let expectedVersion, expectedVersion != record.version { throw .stale(id: id, current: record.version) }
            try change(&record)
            return record
        }
        guard let updated = try result.get() else { throw .notFound(id: id) }
        return updated
    }

    /// Deletes the record `id` (a tombstone in the store); view models showing it are gone.
    public func delete(id: String) async throws(SharedRecordError) {
        let result = await commit(id) { current throws(SharedRecordError) in
            guard current != nil else { throw .notFound(id: id) }
            return nil
        }
        _ = try result.get()
    }

    // MARK: The server's side

    /// How the server opens and refreshes this collection.
    public var connection: SharedModelConnection {
        SharedModelConnection(
            open: { [self] storage throws(SharedRecordError) in try await open(storage) },
            refreshAll: { [self] in await refresh() },
            refresh: { [self] id, version in await refresh(id: id, toVersion: version) }
        )
    }

    /// Loads the records from `storage`; when it holds none at all (first start), stores the
    /// first-start records first. Writes go to `storage` from then on.
    package func open(_ storage: any SharedRecordStorage) async throws(SharedRecordError) {
        var stored = try await Self.load(storage)
        if stored.isEmpty {
            for var record in firstStart {
                record.version = 1
                let first = StoredRecord(id: record.id, version: 1, state: try Self.encode(record))
                do throws(SharedStorageError) {
                    try await storage.write(first, replacing: nil)
                } catch {
                    // A conflict: another node starting at the same time stored it first.
                    if case .unavailable(let reason) = error { throw .unavailable(reason: reason) }
                }
            }
            stored = try await Self.load(storage)
        }
        contents.withLock { $0.storage = storage }
        apply(stored)
    }

    /// Reloads every record from the storage and shows what changed (another node wrote it).
    package func refresh() async {
        await queue.run { [self] in
            guard let storage = contents.withLock({ $0.storage }), let stored = try? await storage.loadAll() else { return }
            apply(stored)
        }
    }

    /// Reloads the record `id` when the store holds a newer version than the collection (another
    /// node committed `version`); view models bound to it follow.
    package func refresh(id: String, toVersion version: Int) async {
        guard contents.withLock({ $0.versions[id] ?? 0 }) < version else { return }
        await queue.run { [self] in
            guard let storage = contents.withLock({ $0.storage }), let stored = try? await storage.loadAll() else { return }
            apply(stored.filter { $0.id == id })
        }
    }

    // MARK: Internals

    /// In the commit queue: plans the new value from the current one (nil deletes), commits it
    /// to the storage, then shows it.
    private func commit(
        _ id: String, plan: @escaping @Sendable (Record?) throws(SharedRecordError) -> Record?
    ) async -> Result<Record?, SharedRecordError> {
        await queue.run { [self] () async -> Result<Record?, SharedRecordError> in
            let (current, stored, storage) = contents.withLock { ($0.records[id], $0.versions[id], $0.storage) }
            guard let storage else { return .failure(.unavailable(reason: "the collection \(name) is not open")) }
            let planned: Record?
            do throws(SharedRecordError) { planned = try plan(current) } catch { return .failure(error) }
            if let planned, let current, planned == current { return .success(current) }
            let version = (stored ?? 0) + 1
            let next = planned.map { record -> Record in
                var record = record
                record.version = version
                return record
            }
            guard next != nil || stored != nil else { return .success(nil) }
            let state: Data?
            do throws(SharedRecordError) {
                state = try next.map { record throws(SharedRecordError) in try Self.encode(record) }
            } catch {
                return .failure(error)
            }
            do throws(SharedStorageError) {
                try await storage.write(StoredRecord(id: id, version: version, state: state), replacing: stored)
            } catch {
                switch error {
                case .conflict:
                    if let records = try? await storage.loadAll() { apply(records.filter { $0.id == id }) }
                    return .failure(.conflict(id: id))
                case .unavailable(let reason):
                    return .failure(.unavailable(reason: reason))
                }
            }
            apply([StoredRecord(id: id, version: version, state: nil)], values: [id: next])
            return .success(next)
        }
    }

    /// Shows stored records newer than what the collection holds, then notifies observers (after
    /// the change, so a session that renders at once already reads the new value). `values` are
    /// records already decoded (a local commit).
    private func apply(_ stored: [StoredRecord], values: [String: Record?] = [:]) {
        let changed = contents.withLock { contents in
            var changed = false
            for record in stored where record.version > (contents.versions[record.id] ?? 0) {
                if let value = values[record.id] {
                    Self.install(id: record.id, version: record.version, value: value, into: &contents)
                } else {
                    Self.install(record, into: &contents)
                }
                changed = true
            }
            return changed
        }
        if changed { registrar.withMutation(of: self, keyPath: \.records) {} }
    }

    private static func install(_ record: StoredRecord, into contents: inout Contents) {
        let value = record.state.flatMap { try? JSONDecoder().decode(Record.self, from: $0) }
        install(id: record.id, version: record.version, value: value, into: &contents)
    }

    private static func install(id: String, version: Int, value: Record?, into contents: inout Contents) {
        contents.versions[id] = version
        if var record = value {
            record.id = id
            record.version = version
            contents.records[id] = record
        } else {
            contents.records[id] = nil
        }
    }

    private static func load(_ storage: any SharedRecordStorage) async throws(SharedRecordError) -> [StoredRecord] {
        do throws(SharedStorageError) {
            return try await storage.loadAll()
        } catch {
            switch error {
            case .conflict(let id): throw .conflict(id: id)
            case .unavailable(let reason): throw .unavailable(reason: reason)
            }
        }
    }

    private static func encode(_ record: Record) throws(SharedRecordError) -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        do { return try encoder.encode(record) } catch { throw .unavailable(reason: "cannot encode \(record.id)") }
    }
}
