import CBinderyShim
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

/// A file as served: its bytes and, for text, the same compressed with gzip (made once, when the
/// file is read, and kept only when smaller).
package struct CachedFile: Sendable {
    /// The file's bytes.
    package let bytes: [UInt8]
    /// The same, gzip-compressed; nil when not compressible or when that is not smaller.
    package let gzipped: [UInt8]?

    /// `bytes`, with a gzip variant when `compressible` and it pays.
    package init(bytes: [UInt8], compressible: Bool) {
        self.bytes = bytes
        gzipped = compressible ? Gzip.compress(bytes) : nil
    }
}

/// File contents kept in memory while their size and modification time are unchanged.
final class FileCache: Sendable {
    private struct Entry {
        let info: FileInfo
        let file: CachedFile
        var size: Int { file.bytes.count + (file.gzipped?.count ?? 0) }
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

    func file(for path: String, matching info: FileInfo) -> CachedFile? {
        state.withLock { state in
            guard let entry = state.entries[path], entry.info == info else { return nil }
            return entry.file
        }
    }

    func store(_ file: CachedFile, for path: String, info: FileInfo) {
        state.withLock { state in
            if let old = state.entries.removeValue(forKey: path) { state.total -= old.size }
            let entry = Entry(info: info, file: file)
            guard state.total + entry.size <= budget else { return }
            state.entries[path] = entry
            state.total += entry.size
        }
    }
}

/// gzip (RFC 1952) through zlib, for static files compressed once and served many times.
/// zlib rather than a Swift package: it is already on every machine that has libmicrohttpd, and
/// nothing else here needs a compression library.
package enum Gzip {
    /// `bytes` as one gzip member; nil when that is not smaller (or zlib failed).
    package static func compress(_ bytes: [UInt8]) -> [UInt8]? {
        guard bytes.count > 256 else { return nil }
        // deflate's worst case is a few bytes over the input; a larger result is useless anyway.
        let capacity = bytes.count
        var output = [UInt8](repeating: 0, count: capacity)
        let written = bytes.withUnsafeBufferPointer { input in
            output.withUnsafeMutableBufferPointer { out in
                bindery_gzip(input.baseAddress, input.count, out.baseAddress, capacity)
            }
        }
        guard written > 0, written < bytes.count else { return nil }
        return Array(output.prefix(written))
    }

    /// Whether the request's `Accept-Encoding` takes gzip (and does not refuse it with `q=0`).
    package static func isAccepted(by request: Request) -> Bool {
        guard let header = request.headers[.acceptEncoding] else { return false }
        for item in header.split(separator: ",") {
            let parts = item.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
            guard let coding = parts.first, coding == "gzip" || coding == "x-gzip" || coding == "*" else { continue }
            let weight = parts.dropFirst().first { $0.hasPrefix("q=") }.flatMap { Double($0.dropFirst(2)) }
            return weight.map { $0 > 0 } ?? true
        }
        return false
    }
}
