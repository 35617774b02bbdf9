import Foundation
import Observation
import Synchronization

/// Records every session shares — a shared model (what other stacks keep in a database table
/// every user's screens show): kept in the server's store, versioned, followed across nodes,
/// bound two-way to view models, deletable while viewed (and restorable for a while after).
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
/// commit changes nothing. A record's collaborative texts (``SharedRecord/collaborativeTexts``)
/// can also be edited by text operations that merge with concurrent ones
/// (``collaborativeText(id:key:)``).
public final class SharedCollection<Record: SharedRecord>: SharedModel, Observable {
    struct Contents {
        /// The live records by id.
        var records: [String: Record] = [:]
        /// The stored version of every id, deleted ones (tombstones) included.
        var versions: [String: Int] = [:]
        /// The recent text edits of every record this node has seen change.
        var logs: [String: RecordEditLog] = [:]
        /// The last deletion of every tombstone this node knows of.
        var deletions: [String: SharedDeletion<Record>] = [:]
        /// Where changes are committed; nil until the server opened the collection.
        var storage: (any SharedRecordStorage)?
    }

    /// The collection's name: its records are stored as `<name>/<id>`.
    public let name: String
    private let firstStart: [Record]
    let contents = Mutex(Contents())
    let registrar = ObservationRegistrar()
    let queue = CommitQueue()
    private let makeID: @Sendable () -> String
    /// Who sees a record (``Viewer/current``): others read the collection as if it were not there.
    let readAccess: Access<Record>
    /// Who may add a record or change one.
    let writeAccess: Access<Record>
    /// Who may delete a record or restore a deleted one.
    let deleteAccess: Access<Record>

    /// Declares a collection named `name`; when its store holds no record of it at all (first
    /// start), `firstStart` is stored. `makeID` names added records.
    ///
    /// The access rules apply to whoever the request is for (``Viewer/current``): `readableBy`
    /// hides the records a user may not see, `writableBy` guards adding and changing one (its
    /// texts too), `deletableBy` (by default `writableBy`) deleting and restoring one. A refused
    /// change throws ``SharedRecordError/signInRequired`` or ``SharedRecordError/forbidden(id:)``
    /// and changes nothing. Code outside a request (the server's own) is not checked.
    ///
    /// ```swift
    /// SharedCollection<Document>("documents", writableBy: .signedIn,
    ///                            deletableBy: .when { user, document in document.owner == user.id })
    /// ```
    public init(
        _ name: String, firstStart: [Record] = [], makeID: @escaping @Sendable () -> String = SharedCollection.randomID,
        readableBy: Access<Record> = .everyone, writableBy: Access<Record> = .everyone, deletableBy: Access<Record>? = nil
    ) {
        self.name = name
        self.firstStart = firstStart
        self.makeID = makeID
        self.readAccess = readableBy
        self.writeAccess = writableBy
        self.deleteAccess = deletableBy ?? writableBy
    }

    /// A collection in memory, open at once, holding `records` (tests and throwaway runs), with
    /// the access rules of ``init(_:firstStart:makeID:readableBy:writableBy:deletableBy:)``.
    public static func inMemory(
        _ name: String, _ records: [Record], readableBy: Access<Record> = .everyone, writableBy: Access<Record> = .everyone,
        deletableBy: Access<Record>? = nil
    ) -> SharedCollection {
        let collection = SharedCollection(name, readableBy: readableBy, writableBy: writableBy, deletableBy: deletableBy)
        let stored = records.map { StoredRecord(id: $0.id, version: $0.version, state: try? Self.encode($0)) }
        collection.contents.withLock { contents in
            contents.storage = MemoryRecordStorage(preloaded: stored)
            for record in stored { Self.install(record, change: nil, into: &contents) }
        }
        return collection
    }

    /// `r` and 8 random hex digits: never `events` or `commands`, which address other things.
    @Sendable public static func randomID() -> String {
        let digits = String(UInt32.random(in: .min ... .max), radix: 16)
        return "r" + String(repeating: "0", count: 8 - digits.count) + digits
    }

    // MARK: Reading

    /// Every record the current viewer may see, by id.
    public var records: [Record] {
        registrar.access(self, keyPath: \.records)
        return contents.withLock { Array($0.records.values) }.filter(isVisible).sorted { $0.id < $1.id }
    }

    /// The record `id`, or nil when there is none (never was, or deleted) or the current viewer
    /// may not see it.
    public func record(id: String) -> Record? {
        registrar.access(self, keyPath: \.records)
        return contents.withLock { $0.records[id] }.flatMap { isVisible($0) ? $0 : nil }
    }

    /// Whether the record `id` exists (and the current viewer may see it), without reporting the
    /// read to Observation.
    public func contains(id: String) -> Bool {
        contents.withLock { $0.records[id] }.map(isVisible) ?? false
    }

    /// How the record `id` was last deleted, while it stays deleted and this node knows (nil when
    /// the current viewer may not see it).
    public func deletion(of id: String) -> SharedDeletion<Record>? {
        registrar.access(self, keyPath: \.records)
        return contents.withLock { $0.records[id] == nil ? $0.deletions[id] : nil }.flatMap { isVisible($0.record) ? $0 : nil }
    }

    /// Whether the current viewer (``Viewer/current``) may see `record`.
    private func isVisible(_ record: Record) -> Bool {
        readAccess.isEveryone || readAccess.decision(for: Viewer.current, record) == .allowed
    }

    // MARK: Changing

    /// How long a write waits its turn when other nodes keep committing the same record first:
    /// each loss reloads the record and applies the change again to the newer version (a change
    /// is a function of the current record, so nothing another node wrote is overwritten), after
    /// a short random pause. Several users adding to one list in a record from several nodes all get
    /// theirs; only a record that others win for this long in a row answers "changed elsewhere".
    static var writePatience: Duration { .seconds(5) }

    /// Adds the record `make` builds for a new id; answers it once it is durable.
    public func add(_ make: @escaping @Sendable (_ id: String) -> Record) async throws(SharedRecordError) -> Record {
        var record = make(makeID())
        record.version = 1
        let id = record.id
        let viewer = Viewer.current
        return try await change(id) { [record, writeAccess] current throws(SharedRecordError) in
            guard current == nil else { throw .conflict(id: id) }
            try writeAccess.decision(for: viewer, record).enforce(record: id)
            return record
        }
    }

    /// Changes the record `id` with `change` (applied to its current value, so changes to other
    /// fields made meanwhile are kept). With `expectedVersion`, only while the record is still at
    /// that version. A change that changes nothing commits nothing. Answers the new record.
    @discardableResult
    public func update(
        id: String, expectedVersion: Int? = nil,
        _ change: @escaping @Sendable (inout Record) throws(SharedRecordError) -> Void
    ) async throws(SharedRecordError) -> Record {
        let viewer = Viewer.current
        return try await self.change(id) { [writeAccess] current throws(SharedRecordError) in
            guard var record = current else { throw .notFound(id: id) }
            try writeAccess.decision(for: viewer, record).enforce(record: id)
            if let expectedVersion, expectedVersion != record.version { throw .stale(id: id, current: record.version) }
            try change(&record)
            return record
        }
    }

    /// Deletes the record `id` (a tombstone in the store); view models showing it are gone.
    /// `by` names who deleted it (a presence name), for those who were looking at it.
    public func delete(id: String, by: String? = nil) async throws(SharedRecordError) {
        let viewer = Viewer.current
        let result = await commit(id, patience: Self.writePatience) {
            [deleteAccess] current, _ throws(SharedRecordError) -> CommitStep<Void, Record> in
            guard let current else { throw .notFound(id: id) }
            try deleteAccess.decision(for: viewer, current).enforce(record: id)
            return .write(nil, RecordChange(by: by)) { _, _ in }
        }
        try result.get()
    }

    /// Brings back the record `id` as it was when it was deleted, at a new version; answers it.
    /// Fails with ``SharedRecordError/notFound(id:)`` when it is not deleted or its deletion is
    /// no longer in the store's log.
    @discardableResult
    public func restore(id: String) async throws(SharedRecordError) -> Record {
        let viewer = Viewer.current
        let result = await commit(id, patience: Self.writePatience) { [self] current, _ throws(SharedRecordError) -> CommitStep<Record, Record> in
            guard current == nil, let deleted = await deletedRecord(id) else { throw .notFound(id: id) }
            try deleteAccess.decision(for: viewer, deleted).enforce(record: id)
            return .write(deleted, RecordChange()) { record, _ in record ?? deleted }
        }
        return try result.get()
    }

    /// Commits the record `plan` makes of the current one; answers the committed record.
    private func change(
        _ id: String, _ plan: @escaping @Sendable (Record?) throws(SharedRecordError) -> Record
    ) async throws(SharedRecordError) -> Record {
        let result = await commit(id, patience: Self.writePatience) { current, _ throws(SharedRecordError) -> CommitStep<Record, Record> in
            let planned = try plan(current)
            return .write(planned, RecordChange()) { record, _ in record ?? planned }
        }
        return try result.get()
    }

    // MARK: The server's side

    /// How the server opens and refreshes this collection.
    public var connection: SharedModelConnection {
        SharedModelConnection(
            open: { [self] storage throws(SharedRecordError) in try await open(storage) },
            refreshAll: { [self] in await refresh() },
            refresh: { [self] id, version in await refresh(id: id, toVersion: version) },
            recordShape: Self.recordShape
        )
    }

    /// Loads the records from `storage`; when it holds none at all (first start), stores the
    /// first-start records first. Writes go to `storage` from then on.
    package func open(_ storage: any SharedRecordStorage) async throws(SharedRecordError) {
        var stored = try await Self.load(storage)
        if stored.isEmpty {
            for var record in firstStart {
                record.version = 1
                let first = StoredRecord(
                    id: record.id, version: 1, state: try Self.encode(record), change: RecordChange().data, shape: Self.recordShape.stored
                )
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
        await apply(stored, from: storage)
    }

    /// Reloads every record from the storage and shows what changed (another node wrote it).
    package func refresh() async {
        await queue.run { [self] in
            guard let storage = contents.withLock({ $0.storage }), let stored = try? await storage.loadAll() else { return }
            await apply(stored, from: storage)
        }
    }

    /// Reloads the record `id` when the store holds a newer version than the collection (another
    /// node committed `version`); view models bound to it follow.
    package func refresh(id: String, toVersion version: Int) async {
        guard contents.withLock({ $0.versions[id] ?? 0 }) < version else { return }
        await queue.run { [self] in await reload(id) }
    }

    /// In the commit queue: reloads the record `id` and its logged changes from the storage.
    func reload(_ id: String) async {
        guard let storage = contents.withLock({ $0.storage }), let stored = try? await storage.load(id: id) else { return }
        await apply([stored], from: storage)
    }
}

extension AccessDecision {
    /// Throws unless allowed: ``SharedRecordError/signInRequired`` or
    /// ``SharedRecordError/forbidden(id:)`` for the record `id`.
    func enforce(record id: String) throws(SharedRecordError) {
        switch self {
        case .allowed: return
        case .signInRequired: throw .signInRequired
        case .forbidden: throw .forbidden(id: id)
        }
    }
}

/// How a shared record was deleted: what it was and who deleted it.
public struct SharedDeletion<Record: SharedRecord>: Sendable, Hashable {
    /// The record as it was just before.
    public var record: Record
    /// Who deleted it (a presence name), when known.
    public var by: String?
    /// The version its deletion made.
    public var version: Int
}
