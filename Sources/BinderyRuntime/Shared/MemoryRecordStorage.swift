import Synchronization

/// A ``SharedRecordStorage`` in memory, for tests and throwaway runs; it can be told to fail.
package final class MemoryRecordStorage: SharedRecordStorage {
    private let stored = Mutex<[String: StoredRecord]>([:])
    private let failing = Mutex(false)

    /// A storage holding `preloaded`.
    package init(preloaded: [StoredRecord] = []) {
        stored.withLock { stored in
            for record in preloaded { stored[record.id] = record }
        }
    }

    /// Makes every later write fail with ``SharedStorageError/unavailable(reason:)`` (or work again).
    package func setFailing(_ fails: Bool) {
        failing.withLock { $0 = fails }
    }

    /// Every stored record and tombstone, by id.
    package func loadAll() async throws(SharedStorageError) -> [StoredRecord] {
        stored.withLock { Array($0.values).sorted { $0.id < $1.id } }
    }

    /// Stores `record` if `expected` is the stored version.
    package func write(_ record: StoredRecord, replacing expected: Int?) async throws(SharedStorageError) {
        if failing.withLock({ $0 }) { throw .unavailable(reason: "the test storage fails") }
        let result: Result<Void, SharedStorageError> = stored.withLock { stored in
            guard stored[record.id]?.version == expected else { return .failure(.conflict(id: record.id)) }
            stored[record.id] = record
            return .success(())
        }
        try result.get()
    }
}
