import Synchronization

/// Where a stream of several views (`GET /api/events`) stands: the version it sent last of each
/// view, written as its events' `id:` (`<path>@<version>` joined by commas, in the order the
/// views were first sent), so `Last-Event-ID` resumes every view at once.
final class ResumePoint: Sendable {
    private struct Entries {
        var order: [String] = []
        var versions: [String: Int] = [:]
    }

    private let entries: Mutex<Entries>

    /// A point from `Last-Event-ID` (or `lastEventId`); entries that are not `<path>@<version>`
    /// are left out, so their views start with a snapshot.
    init(parsing header: String?) {
        var entries = Entries()
        for entry in (header ?? "").split(separator: ",") {
            guard let at = entry.lastIndex(of: "@"), let version = Int(entry[entry.index(after: at)...]), version >= 0 else { continue }
            let path = String(entry[..<at])
            guard !path.isEmpty, entries.versions[path] == nil else { continue }
            entries.order.append(path)
            entries.versions[path] = version
        }
        self.entries = Mutex(entries)
    }

    /// The version of `view` the client holds, if the point names it.
    func version(of view: String) -> Int? {
        entries.withLock { $0.versions[view] }
    }

    /// Moves `view` to `version` and calls `write` with the new `id:`, under the point's lock.
    func advance(_ view: String, to version: Int, write: (String) -> Void) {
        entries.withLock { entries in
            if entries.versions.updateValue(version, forKey: view) == nil { entries.order.append(view) }
            write(entries.order.map { "\($0)@\(entries.versions[$0]!)" }.joined(separator: ","))
        }
    }
}
