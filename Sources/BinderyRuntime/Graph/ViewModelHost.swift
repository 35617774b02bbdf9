import Foundation
import Observation

/// One view model as Bindery serves it: its path, version, encoded snapshot and watchers.
///
/// A host lives inside its session's ``ViewModelGraph`` and is only touched from there.
/// Rendering runs under `withObservationTracking`, so any later change to state the snapshot
/// read fires the host's ``ChangeSignal`` (commands shown in the snapshot fire it through
/// `CommandReaders`); the graph then re-renders, and only a snapshot that
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
        /// Whether it may still be sent versions: false once a sign-in replaced the token it was
        /// opened with (nothing the user's view models show reaches whoever holds that token).
        var admitted: @Sendable () -> Bool = { true }
    }

    /// A long-poll waiting for a new version.
    struct Waiter {
        let continuation: CheckedContinuation<EncodedSnapshot?, Never>
        /// As ``Watcher/admitted``: false once the request's token was replaced.
        let admitted: @Sendable () -> Bool

        /// Ends the wait with `snapshot`, or with nothing new when it is no longer admitted.
        func resume(returning snapshot: EncodedSnapshot?) {
            continuation.resume(returning: admitted() ? snapshot : nil)
        }
    }

    let path: String
    private(set) var viewModel: any ViewModel
    let signal: ChangeSignal
    private(set) var version: Int
    /// The newest rendered snapshot. A new render is compared with it byte for byte (all but
    /// the version): no rendered `JSONValue` is kept, as it would cost several times the bytes.
    private(set) var encoded: EncodedSnapshot
    /// Whether the next render is a new version even when it shows the same members.
    private var rendersNewVersion = true
    /// Whether the next render shows what the store already holds, at its version
    /// (``continueFrom(storedVersion:upgraded:)``): published without a commit. Any other render gets a
    /// version above every one stored, queued or committed, so a change is never taken for one
    /// the store holds.
    private(set) var rendersStoredVersion = false
    /// The last version committed (published to readers and watchers), if any.
    private(set) var committed: EncodedSnapshot?
    /// The version the store holds for this view model (a restored one before its first render).
    private(set) var storedVersion: Int?
    /// The newest version handed to the store, committed or not: the next commit replaces it.
    var queuedVersion: Int?
    /// The persisted state of the last committed version, to roll back to and merge from; kept
    /// as JSON text (see ``CommittedState``: a loaded list's state is every spot and hotel), and
    /// read back on the rare occasions it is needed.
    var committedState: JSONValue? {
        get { committedStateText?.value }
        set { committedStateText = newValue.map(CommittedState.init) }
    }
    private var committedStateText: CommittedState?
    /// The deferred command the last committed version records as running.
    var committedCommand: String?
    /// The deferred command the newest version handed to the store records as running.
    var queuedCommand: String?
    var watchers: [Int: Watcher] = [:]
    /// The collaborative texts the last published version showed, and their revisions.
    var publishedTexts: [ShownTexts.Shown] = []
    /// Whether a watcher takes patches: new versions are then diffed against the previous one.
    var wantsPatches: Bool { watchers.values.contains { $0.patches } }
    var waiters: [Int: Waiter] = [:]
    /// Another node committed a newer version while nobody here watched: reloaded on next use.
    var isBehindStore = false
    /// Whether its snapshots show collaborative texts (its declaration's, read once: asked at
    /// every render, it was about 5 % of a PATCH's CPU in the profile).
    private(set) var showsCollaborativeTexts: Bool
    /// Its sensitive inputs: the store keeps their values sealed, the version log its snapshots with
    /// their values masked, and watchers never get those logged snapshots.
    private(set) var sensitiveInputs: [String]
    /// Whether it declares a sensitive input.
    var hasSensitiveInputs: Bool { !sensitiveInputs.isEmpty }

    /// Whether the next render shows state rolled back after a failed commit: not the doing of
    /// the request whose flush renders it.
    private var rendersRolledBack = false
    /// Whether the newest rendered version shows rolled-back state: it claims no idempotency key.
    private(set) var showsRolledBackState = false
    /// Whether its snapshots go on the board, read without a hop onto the graph: not when a read
    /// rule above or on it depends on the view model (it is checked at every read then).
    var isServedFromBoard = true
    /// Whether someone here follows this view model's versions as they happen: an event
    /// stream, a long-poll, or a deferred command running here.
    var isFollowed: Bool { !watchers.isEmpty || !waiters.isEmpty || viewModel.runningDeferredCommand != nil }
    var activation: Task<Void, Never>?
    private(set) var isActive = false

    /// Hosts `viewModel` at `path`; the first refresh renders version `firstVersion`.
    init(path: String, viewModel: any ViewModel, firstVersion: Int, signal: ChangeSignal) {
        self.path = path
        self.viewModel = viewModel
        self.showsCollaborativeTexts = viewModel.showsCollaborativeTexts
        self.sensitiveInputs = viewModel.sensitiveInputNames
        viewModel.commandStates.servedPath = path
        self.signal = signal
        self.version = firstVersion - 1
        self.encoded = EncodedSnapshot(path: path, version: firstVersion - 1, bytes: [])
    }

    /// Continues from what the store holds (after a restart, or another node's newer version):
    /// the next render shows `version`, even when it looks like the last one; state `upgraded`
    /// from an earlier shape renders the next version instead, committed.
    func continueFrom(storedVersion version: Int, upgraded: Bool = false) {
        storedVersion = version
        queuedVersion = version
        self.version = version - 1
        rendersNewVersion = true
        // State read through a migration may render differently: a new version, committed with
        // the new shape, never the stored version's ETag over other content.
        rendersStoredVersion = !upgraded
        signal.fire()
    }

    /// The newest version this host knows of: rendered, handed to the store, stored or committed.
    /// What the store holds of it is newer only when another node wrote it.
    var newestKnownVersion: Int {
        max(version, queuedVersion ?? 0, storedVersion ?? 0, committed?.version ?? 0)
    }

    /// Records that `snapshot` is durable: readers and watchers may see it now. Returns false
    /// (and changes nothing) when it is not newer than what is already shown.
    @discardableResult
    func markCommitted(_ snapshot: EncodedSnapshot) -> Bool {
        guard snapshot.version > (committed?.version ?? 0) else { return false }
        committed = snapshot
        storedVersion = max(storedVersion ?? 0, snapshot.version)
        return true
    }

    /// Forgets versions that were rendered but not committed; the next render starts again from
    /// the committed one.
    /// The next request's flush renders again (nothing is scheduled: a store that keeps failing
    /// is not retried in a loop).
    func rollBack() {
        rendersRolledBack = true
        queuedVersion = storedVersion
        queuedCommand = committedCommand
        signal.markDirty()
        guard let committed else {
            version = (storedVersion ?? 1) - 1
            rendersNewVersion = true
            return
        }
        version = committed.version
        encoded = committed
    }

    /// The members of the committed version (without its version), to compute patches from:
    /// read back from its bytes, only when a watcher takes patches.
    var committedMembers: JSONValue? {
        guard let committed, case .object(var members)? = try? JSONValue(parsing: committed.bytes) else { return nil }
        members["version"] = nil
        return .object(members)
    }

    /// Replaces the hosted view model (its parent rebuilt it); the next refresh shows it.
    func replace(with viewModel: any ViewModel) {
        self.viewModel = viewModel
        self.showsCollaborativeTexts = viewModel.showsCollaborativeTexts
        self.sensitiveInputs = viewModel.sensitiveInputNames
        viewModel.commandStates.servedPath = path
        signal.dropTracking()
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
    /// Returns the new snapshot when the rendered state differs from the previous version's, and
    /// whether it is the version the store holds (``rendersStoredVersion``).
    func refresh() -> (snapshot: EncodedSnapshot, body: JSONValue, isStored: Bool, texts: [ShownTexts.Shown])? {
        guard signal.takeDirty() else { return nil }
        let rolledBack = rendersRolledBack
        rendersRolledBack = false
        let collector = showsCollaborativeTexts ? ShownTexts(path: path) : nil
        let rendered = ShownTexts.$collecting.withValue(collector) { renderTracked() }
        let isStored = rendersStoredVersion
        let next = isStored ? version + 1 : newestKnownVersion + 1
        let bytes = Self.encode(rendered, version: next, capacity: encoded.bytes.count + 16)
        guard rendersNewVersion || Self.members(of: bytes) != Self.members(of: encoded.bytes) else { return nil }
        rendersNewVersion = false
        rendersStoredVersion = false
        showsRolledBackState = rolledBack
        version = next
        // Other sessions may show the same version of the same view model: keep their bytes.
        encoded = EncodedSnapshot(path: path, version: version, bytes: SharedBytes.pool.intern(bytes))
        return (encoded, rendered, isStored, collector?.shown ?? [])
    }

    /// Renders the snapshot's members, tracking what the view model's code reads.
    private func renderTracked() -> JSONValue {
        CommandReaders.$rendering.withValue(signal) { () -> JSONValue in
            // Still tracked: only something outside the view model's own state changed (a
            // command's status, being watched, a new version), which cannot change what its
            // code reads; a second tracking would only pile up in its registrar.
            guard !signal.isTracking else { return render() }
            signal.beginTracking()
            return withObservationTracking {
                render()
            } onChange: { [signal] in
                signal.trackedStateChanged()
            }
        }
    }

    /// The snapshot's JSON: the members sorted by name, then `"version"`, which sorts after every
    /// top-level name a snapshot has (`active`, `commands`, `inputs`, `outputs`, `path`), so this
    /// is the sorted encoding of the whole object.
    static func encode(_ rendered: JSONValue, version: Int, capacity: Int) -> [UInt8] {
        var writer = JSONWriter(capacity: capacity)
        writer.writeObject(rendered.objectValue ?? [:], last: ("version", .int(version)))
        return writer.compactBytes
    }

    /// An encoded snapshot up to its version member: everything before the last comma (the
    /// version's digits are the only bytes after it).
    private static func members(of bytes: [UInt8]) -> ArraySlice<UInt8> {
        bytes[..<(bytes.lastIndex(of: UInt8(ascii: ",")) ?? bytes.startIndex)]
    }

    /// The snapshot's members, without the version.
    private func render() -> JSONValue {
        var members = viewModel.snapshotMembers
        members["path"] = .string(path)
        members["active"] = .bool(isActive)
        return .object(members)
    }
}
