import BinderyRuntime
import BinderyStore
import Foundation

/// A shared model's records in Bindery's session store, so they last on SQLite, in memory and on
/// PostgreSQL with no store code of their own.
///
/// They live under a reserved pseudo-session, a record space (``SessionKind/records``: idle purges
/// and the store's trim never touch it): every shared model's under ``session`` (32 bytes of
/// `0xff`, no token hashes to it in practice), each user's records (``UserRecords``) under a
/// space of that user's (``UserSpaces``). Each record is one view-model record at `<model>/<id>`
/// (`notes/42` for a model named `notes`) whose state is the record's JSON and whose version is
/// the record's; a deleted record is a write of `null` (a tombstone). Every write names the
/// version it replaces, so a second node writing the same record gets a conflict. What a version
/// changed (its text edits, a deletion's record) is the version log's entry of that write, so the
/// log's bounds (the store's `VersionLogPolicy`) are its bounds.
package struct StoreRecordStorage: SharedRecordStorage {
    /// The pseudo-session holding every shared model's records.
    package static let session = SessionTokenHash(bytes: Data(repeating: 0xff, count: SessionTokenHash.byteCount))!

    private let store: any SessionStateStore
    /// The record space the records live in.
    private let space: SessionTokenHash
    /// `<model>/`: the path prefix of this model's records.
    private let prefix: String

    private init(store: any SessionStateStore, space: SessionTokenHash, model: String) {
        self.store = store
        self.space = space
        self.prefix = model + "/"
    }

    /// The storage of the model named `model` in the record space `space` of `store` (the shared
    /// models' by default), creating the space when it is missing.
    static func open(
        store: any SessionStateStore, model: String, space: SessionTokenHash = session
    ) async throws(SharedRecordError) -> StoreRecordStorage {
        do {
            if try await store.session(space) == nil {
                do {
                    _ = try await store.createSession(space, at: .distantFuture, kind: .records)
                } catch StoreError.sessionExists {
                    // Another node created it first.
                }
            }
        } catch {
            throw .unavailable(reason: "\(error)")
        }
        return StoreRecordStorage(store: store, space: space, model: model)
    }

    /// The record id a changed view-model key names in the model `model` of the record space
    /// `space`, if it is one of its.
    static func recordID(of key: ViewModelKey, model: String, space: SessionTokenHash = session) -> String? {
        guard key.session == space, key.path.hasPrefix(model + "/") else { return nil }
        return String(key.path.dropFirst(model.count + 1))
    }

    /// Every record of the model, tombstones included.
    package func loadAll() async throws(SharedStorageError) -> [StoredRecord] {
        let records: [ViewModelRecord]
        do {
            records = try await store.viewModels(of: space)
        } catch {
            throw .unavailable(reason: "\(error)")
        }
        return records.compactMap(stored)
    }

    /// The record `id` alone, when the store reads one view model (a shared store); else found
    /// among all of them.
    package func load(id: String) async throws(SharedStorageError) -> StoredRecord? {
        guard let feed = store.capabilities.changeFeed else { return try await loadAll().first { $0.id == id } }
        do {
            return try await feed.viewModel(key(id)).flatMap(stored)
        } catch {
            throw .unavailable(reason: "\(error)")
        }
    }

    private func stored(_ record: ViewModelRecord) -> StoredRecord? {
        guard record.key.path.hasPrefix(prefix) else { return nil }
        let isTombstone = record.state == Data("null".utf8)
        return StoredRecord(
            id: String(record.key.path.dropFirst(prefix.count)), version: record.version, state: isTombstone ? nil : record.state,
            shape: record.shape.flatMap(StoredShape.init(parsing:))
        )
    }

    /// Writes the record's JSON (or a tombstone) at its version, replacing `expected`, and logs
    /// its change; a write made for a request with an idempotency key claims the key with it.
    package func write(_ record: StoredRecord, replacing expected: Int?) async throws(SharedStorageError) {
        let write = ViewModelWrite(
            key: key(record.id), expected: expected, version: record.version, state: record.state ?? Data("null".utf8),
            snapshot: record.change ?? Data("{}".utf8), at: Date(), claim: RequestClaim.current.flatMap(IdempotencyClaim.init),
            shape: record.shape?.description
        )
        do {
            try await store.commit([write])
        } catch StoreError.conflict {
            throw .conflict(id: record.id)
        } catch {
            throw .unavailable(reason: "\(error)")
        }
    }

    /// The logged changes of the record `id` after `version`; nil once the log no longer reaches
    /// back to it.
    package func changes(of id: String, after version: Int) async throws(SharedStorageError) -> [LoggedChange]? {
        let history: VersionHistory
        do {
            history = try await store.versions(of: key(id), after: version)
        } catch {
            throw .unavailable(reason: "\(error)")
        }
        guard case .versions(let entries) = history else { return nil }
        return entries.map { LoggedChange(version: $0.version, data: $0.snapshot) }
    }

    private func key(_ id: String) -> ViewModelKey {
        ViewModelKey(session: space, path: prefix + id)
    }
}
