import Foundation
import Synchronization

/// Size and modification time of a regular file.
struct FileInfo: Sendable, Equatable {
    let size: Int
    let modified: Int

    /// Nil unless `path` is a regular file.
    init?(path: String) {
        var status = stat()
        guard stat(path, &status) == 0, (status.st_mode & S_IFMT) == S_IFREG else { return nil }
        size = Int(status.st_size)
        modified = Int(status.st_mtim.tv_sec) * 1_000_000_000 + Int(status.st_mtim.tv_nsec)
    }
}

/// File contents kept in memory while their size and modification time are unchanged.
final class FileCache: Sendable {
    private struct Entry {
        let info: FileInfo
        let bytes: [UInt8]
    }

    private struct State {
        var entries: [String: Entry] = [:]
        var total = 0
    }

    private let budget: Int
    private let state = Mutex(State())

    init(budget: Int) {
        self.budget = budget
    }

    func bytes(for path: String, matching info: FileInfo) -> [UInt8]? {
        state.withLock { state in
            guard let entry = state.entries[path], entry.info == info else { return nil }
            return entry.bytes
        }
    }

    func store(_ bytes: [UInt8], for path: String, info: FileInfo) {
        state.withLock { state in
            if let old = state.entries.removeValue(forKey: path) { state.total -= old.bytes.count }
            guard state.total + bytes.count <= budget else { return }
            state.entries[path] = Entry(info: info, bytes: bytes)
            state.total += bytes.count
        }
    }
}
