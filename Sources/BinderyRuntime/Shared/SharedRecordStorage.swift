import Foundation

/// Where a ``SharedCollection`` keeps its records durably: each record's JSON at its version, a
/// deleted one as a tombstone, and what each of the last versions changed (a bounded log, as the
/// store keeps for view models). The server gives every collection one over its store; tests use
/// ``MemoryRecordStorage``.
///
/// Every write names the version it replaces and is refused with
/// ``SharedStorageError/conflict(id:)`` when that is not the stored one (another node wrote first).
package protocol SharedRecordStorage: Sendable {
    /// Every stored record, tombstones included.
    func loadAll() async throws(SharedStorageError) -> [StoredRecord]
    /// The stored record `id` (a tombstone too), or nil: what a commit that lost a race reloads.
    func load(id: String) async throws(SharedStorageError) -> StoredRecord?
    /// Stores `record`, replacing `expected` (nil for a new id), and logs its change.
    func write(_ record: StoredRecord, replacing expected: Int?) async throws(SharedStorageError)
    /// The logged changes of the record `id` after `version`, oldest first; nil when the log no
    /// longer reaches back to `version + 1`.
    func changes(of id: String, after version: Int) async throws(SharedStorageError) -> [LoggedChange]?
}

extension SharedRecordStorage {
    /// The stored record `id`, found among all of them.
    package func load(id: String) async throws(SharedStorageError) -> StoredRecord? {
        try await loadAll().first { $0.id == id }
    }
}

/// One logged change of a record: its version and its ``RecordChange`` as stored.
package struct LoggedChange: Sendable, Hashable {
    /// The version it made.
    package var version: Int
    /// The stored ``RecordChange``.
    package var data: Data

    /// A logged change.
    package init(version: Int, data: Data) {
        self.version = version
        self.data = data
    }
}

/// One stored record: its id, its version and its JSON, or nil once deleted (a tombstone).
package struct StoredRecord: Sendable, Hashable {
    /// The record's id.
    package var id: String
    /// The stored version.
    package var version: Int
    /// The record's JSON; nil when deleted.
    package var state: Data?
    /// What this version changed (a ``RecordChange``), for the log; written, never loaded back
    /// with the record.
    package var change: Data?
    /// The shape ``state`` was written with (the record type's ``SharedCollection/recordShape``);
    /// nil for a record stored before shapes were kept.
    package var shape: StoredShape?

    /// A stored record or tombstone.
    package init(id: String, version: Int, state: Data?, change: Data? = nil, shape: StoredShape? = nil) {
        self.shape = shape
        self.id = id
        self.version = version
        self.state = state
        self.change = change
    }
}

/// Why a record storage refused or failed a write.
package enum SharedStorageError: Error, Sendable, Hashable {
    /// The stored version is not the expected one: another writer got there first.
    case conflict(id: String)
    /// Nothing was stored (disk full, store closed, database down).
    case unavailable(reason: String)
}
