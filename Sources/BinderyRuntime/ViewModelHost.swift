import Foundation
import Observation

/// One view model as Bindery serves it: its path, version, encoded snapshot and watchers.
///
/// A host lives inside its session's ``ViewModelGraph`` and is only touched from there.
/// Rendering runs under `withObservationTracking`, so any later change to state the snapshot
/// read fires the host's ``ChangeSignal``; the graph then re-renders, and only a snapshot that
/// differs from the last one gets a new version and a new encoding.
final class ViewModelHost {
    /// A client watching this view model (an event stream).
    struct Watcher {
        /// Delivers a new version.
        let send: @Sendable (EncodedSnapshot) -> Void
        /// Ends the watch from the server's side (session closed).
        let end: @Sendable () -> Void
        /// Whether it takes JSON Patch events (new versions then carry a patch).
        var patches = false
    }

    let path: String
    private(set) var viewModel: any ViewModel
    let signal: ChangeSignal
    private(set) var version: Int
    private(set) var encoded: EncodedSnapshot
    private var body: JSONValue = .null
    /// The last version committed (published to readers and watchers), if any.
    private(set) var committed: EncodedSnapshot?
    /// The snapshot members of ``committed`` (without the version), to compute patches from.
    private(set) var committedBody: JSONValue = .null
    /// The version the store holds for this view model (a restored one before its first render).
    private(set) var storedVersion: Int?
    /// The newest version handed to the store, committed or not: the next commit replaces it.
    var queuedVersion: Int?
    /// The persisted state of the last committed version, to roll back to.
    var committedState: JSONValue?
    /// The deferred command the last committed version records as running.
    var committedCommand: String?
    /// The deferred command the newest version handed to the store records as running.
    var queuedCommand: String?
    var watchers: [Int: Watcher] = [:]
    /// Whether a watcher takes patches: new versions are then diffed against the previous one.
    var wantsPatches: Bool { watchers.values.contains { $0.patches } }
    var waiters: [Int: CheckedContinuation<EncodedSnapshot?, Never>] = [:]
    var activation: Task<Void, Never>?
    private(set) var isActive = false

    /// Hosts `viewModel` at `path`; the first refresh renders version `firstVersion`.
    init(path: String, viewModel: any ViewModel, firstVersion: Int, signal: ChangeSignal) {
        self.path = path
        self.viewModel = viewModel
        self.signal = signal
        self.version = firstVersion - 1
        self.encoded = EncodedSnapshot(path: path, version: firstVersion - 1, bytes: [])
    }

    /// Continues from what the store holds (after a restart, or another node's newer version):
    /// the next render shows `version`, even when it looks like the last one.
    func continueFrom(storedVersion version: Int) {
        storedVersion = version
        queuedVersion = version
        self.version = version - 1
        body = .null
        signal.fire()
    }

    /// Records that `snapshot` is durable: readers and watchers may see it now. Returns false
    /// (and changes nothing) when it is not newer than what is already shown.
    @discardableResult
    func markCommitted(_ snapshot: EncodedSnapshot, body: JSONValue) -> Bool {
        guard snapshot.version > (committed?.version ?? 0) else { return false }
        committed = snapshot
        committedBody = body
        storedVersion = max(storedVersion ?? 0, snapshot.version)
        return true
    }

    /// Forgets versions that were rendered but not committed; the next render starts again from
    /// the committed one.
    /// The next request's flush renders again (nothing is scheduled: a store that keeps failing
    /// is not retried in a loop).
    func rollBack() {
        queuedVersion = storedVersion
        queuedCommand = committedCommand
        signal.markDirty()
        guard let committed else {
            version = (storedVersion ?? 1) - 1
            body = .null
            return
        }
        version = committed.version
        encoded = committed
        body = committedBody
    }

    /// Replaces the hosted view model (its parent rebuilt it); the next refresh shows it.
    func replace(with viewModel: any ViewModel) {
        self.viewModel = viewModel
        signal.fire()
    }

    /// Sets whether someone watches the view model; `active` is part of the snapshot.
    func setActive(_ active: Bool) {
        guard active != isActive else { return }
        isActive = active
        signal.fire()
    }

    /// Re-renders if anything the last render read has changed.
    ///
    /// Returns the new snapshot when the rendered state differs from the previous version's.
    func refresh() -> (snapshot: EncodedSnapshot, body: JSONValue)? {
        guard signal.takeDirty() else { return nil }
        let rendered = withObservationTracking {
            render()
        } onChange: { [signal] in
            signal.fire()
        }
        guard rendered != body else { return nil }
        body = rendered
        version += 1
        var document = rendered.objectValue ?? [:]
        document["version"] = .int(version)
        let bytes = JSONWriter.bytes(of: .object(document), capacity: encoded.bytes.count + 64)
        encoded = EncodedSnapshot(path: path, version: version, bytes: bytes)
        return (encoded, rendered)
    }

    /// The snapshot's members, without the version.
    private func render() -> JSONValue {
        var members = viewModel.snapshotMembers
        members["path"] = .string(path)
        members["active"] = .bool(isActive)
        return .object(members)
    }
}
