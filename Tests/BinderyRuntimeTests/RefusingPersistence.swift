import BinderyRuntime
import BinderyTestSupport
import Foundation
import Synchronization

/// A ``RecordingPersistence`` that can be told to refuse its next commit, as a store that is
/// down would, once a gate opens: the test decides what runs before the refusal.
final class RefusingPersistence: ViewModelPersistence {
    /// What it commits.
    let recorded = RecordingPersistence()
    private let armed = Mutex<Gate?>(nil)

    /// Refuses the next commit once `gate` opens (holding it until then).
    func refuseNext(when gate: Gate) {
        armed.withLock { $0 = gate }
    }

    func commit(_ versions: [CommittedVersion]) async throws(ViewModelError) {
        if let gate = armed.withLock({ armed in
            defer { armed = nil }; return armed
        }) {
            try? await gate.wait()
            // What a store that is down makes of a commit (a full disk, say).
            throw .storeUnavailable
        }
        try await recorded.commit(versions)
    }

    func latest(of path: String) async throws -> RestoredViewModel? {
        try await recorded.latest(of: path)
    }

    func versions(of path: String, after version: Int) async throws -> [EncodedSnapshot]? {
        try await recorded.versions(of: path, after: version)
    }
}
