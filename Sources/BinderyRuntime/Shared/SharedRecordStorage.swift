import Foundation

/// Where a ``SharedCollection`` keeps its records durably: each record's JSON at its version, a
/// deleted one as a tombstone. The server gives every collection one over its store; tests use
/// ``MemoryRecordStorage``.
///
/// Every write names the version it replaces and is refused with
/// ``SharedStorageError/conflict(id:)`` when that is not the stored one (another node wrote first).
package protocol SharedRecordStorage: Sendable {
    /// Every stored record, tombstones included.
    func loadAll() async throws(SharedStorageError) -> [StoredRecord]
    /// Stores `record`, replacing `expected` (nil for a new id).
    func write(_ record: StoredRecord, replacing expected: Int?) async throws(SharedStorageError)
}

/// One stored record: its id, its version and its JSON, or nil once deleted (a tombstone).
package struct StoredRecord: Sendable, Hashable {
    /// The record's id.
    package var id: String
    /// The stored version.
    package var version: Int
    /// The record's JSON; nil when deleted.
    package var state: Data?

    /// A stored record or tombstone.
    package init(id: String, version: Int, state: Data?) {
        self.id = id
        self.version = version
        self.state = state
    }
}

/// Why a record storage refused or failed a write.
package enum SharedStorageError: Error, Sendable, Hashable {
    /// The stored version is not the expected one: another writer got there first.
    case conflict(id: String)
    /// Nothing was stored (disk full, store closed, database down).
    case unavailable(reason: String)
}
