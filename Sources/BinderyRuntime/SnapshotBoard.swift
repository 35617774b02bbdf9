import Synchronization

/// The latest encoded snapshot of every view model of a session, readable from any thread.
///
/// A read that finds its path here needs no hop onto the session's actor. An entry is removed
/// the moment its view model starts to change and is put back once the new version is encoded,
/// so the board never serves a snapshot older than a completed write.
public final class SnapshotBoard: Sendable {
    private let entries = Mutex<[String: EncodedSnapshot]>([:])

    /// Creates an empty board.
    public init() {}

    /// The current snapshot at `path`, if it is known to be up to date.
    public func snapshot(at path: String) -> EncodedSnapshot? {
        entries.withLock { $0[path] }
    }

    /// The bytes of the encoded snapshots the board holds: what the session keeps ready to serve
    /// (each host holds the same bytes, shared, not copied).
    public var retainedBytes: Int {
        entries.withLock { $0.values.reduce(0) { $0 + $1.bytes.count } }
    }

    /// Publishes the up-to-date snapshot of a path.
    func publish(_ snapshot: EncodedSnapshot) {
        entries.withLock { $0[snapshot.path] = snapshot }
    }

    /// Marks the path's snapshot as stale.
    func invalidate(_ path: String) {
        _ = entries.withLock { $0.removeValue(forKey: path) }
    }

    /// Forgets every snapshot.
    func removeAll() {
        entries.withLock { $0.removeAll() }
    }
}
