import Synchronization

/// The latest encoded snapshot of every view model of a session, readable from any thread.
///
/// A read that finds its path here needs no hop onto the session's actor. An entry is removed
/// the moment its view model starts to change and is put back once the new version is encoded,
/// so the board never serves a snapshot older than a completed write.
///
/// The entries are an array searched by path: a session hosts a few view models, and a
/// dictionary's storage costs several times what its few entries do.
package final class SnapshotBoard: Sendable {
    private let entries = Mutex<[EncodedSnapshot]>([])

    /// Creates an empty board.
    package init() {}

    /// The current snapshot at `path`, if it is known to be up to date.
    package func snapshot(at path: String) -> EncodedSnapshot? {
        entries.withLock { entries in entries.first { $0.path == path } }
    }

    /// The bytes of the encoded snapshots `boards` hold, what their sessions keep ready to serve,
    /// each buffer counted once: sessions showing equal snapshots share one (``SharedBytes``), and
    /// its address tells a shared buffer from a copy.
    package static func retainedBytes(of boards: some Sequence<SnapshotBoard>) -> Int {
        var counted = Set<UInt>()
        var bytes = 0
        for board in boards {
            board.entries.withLock { entries in
                for snapshot in entries where !snapshot.bytes.isEmpty {
                    let address = snapshot.bytes.withUnsafeBufferPointer { UInt(bitPattern: $0.baseAddress) }
                    if counted.insert(address).inserted { bytes += snapshot.bytes.count }
                }
            }
        }
        return bytes
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
    package func removeAll() {
        entries.withLock { $0.removeAll() }
    }
}
