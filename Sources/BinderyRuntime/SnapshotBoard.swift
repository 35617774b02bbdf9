import Synchronization

/// The latest encoded snapshot of every view model of a session, readable from any thread.
///
/// A read that finds its path here needs no hop onto the session's actor. An entry is removed
/// the moment its view model starts to change and is put back once the new version is encoded,
/// so the board never serves a snapshot older than a completed write.
///
/// The entries are an array searched by path: a session hosts a few view models, and a
/// dictionary's storage costs several times what its few entries do.
public final class SnapshotBoard: Sendable {
    private let entries = Mutex<[EncodedSnapshot]>([])

    /// Creates an empty board.
    public init() {}

    /// The current snapshot at `path`, if it is known to be up to date.
    public func snapshot(at path: String) -> EncodedSnapshot? {
        entries.withLock { entries in entries.first { $0.path == path } }
    }

    /// The buffers of the encoded snapshots the board holds, what the session keeps ready to
    /// serve: each one's address and size. Sessions showing equal snapshots share one buffer
    /// (``SharedBytes``), so the address tells a shared buffer from a copy, to count it once.
    public var retainedBuffers: [(address: UInt, count: Int)] {
        entries.withLock { entries in
            entries.map { snapshot in
                (snapshot.bytes.withUnsafeBufferPointer { UInt(bitPattern: $0.baseAddress) }, snapshot.bytes.count)
            }
        }
    }

    /// Publishes the up-to-date snapshot of a path.
    func publish(_ snapshot: EncodedSnapshot) {
        entries.withLock { entries in
            if let index = entries.firstIndex(where: { $0.path == snapshot.path }) {
                entries[index] = snapshot
            } else {
                entries.append(snapshot)
            }
        }
    }

    /// Marks the path's snapshot as stale.
    func invalidate(_ path: String) {
        entries.withLock { entries in
            if let index = entries.firstIndex(where: { $0.path == path }) { entries.remove(at: index) }
        }
    }

    /// Forgets every snapshot.
    func removeAll() {
        entries.withLock { $0.removeAll() }
    }
}
