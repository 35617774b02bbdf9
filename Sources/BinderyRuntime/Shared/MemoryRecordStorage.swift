import Foundation
import Synchronization

/// A ``SharedRecordStorage`` in memory, for tests and throwaway runs; it can be told to fail.
package final class MemoryRecordStorage: SharedRecordStorage {
    private struct State {
        var records: [String: StoredRecord] = [:]
        var logs: [String: [LoggedChange]] = [:]
    }

    private let state = Mutex(State())
    private let failing = Mutex(false)
    private let logLimit: Int

    /// A storage holding `preloaded`, logging the changes of each record's last `logLimit`
    /// versions.
    package init(preloaded: [StoredRecord] = [], logLimit: Int = 64) {
        self.logLimit = max(1, logLimit)
        state.withLock { state in
            for record in preloaded { state.records[record.id] = record }
        }
    }

    /// Makes every later write fail with ``SharedStorageError/unavailable(reason:)`` (or work again).
    package func setFailing(_ fails: Bool) {
        failing.withLock { $0 = fails }
    }

    /// Every stored record and tombstone, by id.
    package func loadAll() async throws(SharedStorageError) -> [StoredRecord] {
        state.withLock { Array($0.records.values).sorted { $0.id < $1.id } }
    }

    /// Stores `record` if `expected` is the stored version, and logs its change.
    package func write(_ record: StoredRecord, replacing expected: Int?) async throws(SharedStorageError) {
        if failing.withLock({ $0 }) { throw .unavailable(reason: "the test storage fails") }
        let result: Result<Void, SharedStorageError> = state.withLock { state in
            guard state.records[record.id]?.version == expected else { return .failure(.conflict(id: record.id)) }
            var kept = record
            kept.change = nil
            state.records[record.id] = kept
            var log = state.logs[record.id] ?? []
            if let last = log.last, last.version + 1 != record.version { log = [] }
            log.append(LoggedChange(version: record.version, data: record.change ?? Data("{}".utf8)))
            state.logs[record.id] = Array(log.suffix(logLimit))
            return .success(())
        }
        try result.get()
    }

    /// The logged changes of `id` after `version`, or nil when the log does not reach back.
    package func changes(of id: String, after version: Int) async throws(SharedStorageError) -> [LoggedChange]? {
        state.withLock { state in
            let current = state.records[id]?.version ?? 0
            if version >= current { return version == current ? [] : nil }
            let log = state.logs[id] ?? []
            guard let first = log.first, first.version <= version + 1 else { return nil }
            return log.filter { $0.version > version }
        }
    }
}
