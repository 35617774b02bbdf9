/// Where a session's graph commits its view models' versions, so they survive a restart.
///
/// The binding layer adapts a durable store to it. Every new version is committed before anyone
/// sees it; a commit that fails leaves the view model as it was.
package protocol ViewModelPersistence: Sendable {
    /// Commits new versions, all or nothing; returns only once they are durable.
    ///
    /// Throws ``ViewModelError/versionConflict`` when a view model's stored version is no longer
    /// the one its new version replaces (another node or process committed first: the graph
    /// reloads it and, for a plain write, tries again), ``ViewModelError/storeUnavailable`` when
    /// the store failed.
    func commit(_ versions: [CommittedVersion]) async throws(ViewModelError)
    /// The versions of `path` after `version`, oldest first; nil when the log no longer reaches
    /// back that far (the caller sends one full snapshot instead).
    func versions(of path: String, after version: Int) async throws -> [EncodedSnapshot]?
    /// The newest committed state of `path` (another node may have written it); nil if none.
    func latest(of path: String) async throws -> RestoredViewModel?
}

/// One new version of one view model, as committed.
package struct CommittedVersion: Sendable, Equatable {
    /// The view model's path.
    package let path: String
    /// The version this one replaces; nil for the view model's first.
    package let expected: Int?
    /// The snapshot of the new version.
    package let snapshot: EncodedSnapshot
    /// The view model's persisted state at this version.
    package let state: JSONValue
    /// The top-level members of ``state`` that hold the values of sensitive inputs: the store keeps
    /// them sealed (encrypted), never in plain text.
    package let sealedMembers: [String]
    /// The deferred command running at this version, if any.
    package let runningCommand: String?
    /// The idempotency key of the request whose flush rendered it, claimed with it.
    package let claim: RequestClaim?
    /// What the version log keeps of the snapshot when it may not keep it as it is: the snapshot
    /// with its sensitive inputs masked (``SensitiveRedaction``); nil keeps ``snapshot``.
    package let loggedSnapshot: [UInt8]?
    /// The shape ``state`` is written with (its declaration's ``PersistedShape``).
    package let shape: StoredShape?

    /// Creates a committed version.
    package init(
        path: String, expected: Int?, snapshot: EncodedSnapshot, state: JSONValue, runningCommand: String?,
        claim: RequestClaim? = nil, loggedSnapshot: [UInt8]? = nil, sealedMembers: [String] = [], shape: StoredShape? = nil
    ) {
        self.shape = shape
        self.path = path
        self.expected = expected
        self.snapshot = snapshot
        self.state = state
        self.sealedMembers = sealedMembers
        self.runningCommand = runningCommand
        self.claim = claim
        self.loggedSnapshot = loggedSnapshot
    }
}

/// A view model's persisted state as a session is restored after a restart.
package struct RestoredViewModel: Sendable, Equatable {
    /// The version it had; the restored view model continues from here.
    package let version: Int
    /// Its persisted state.
    package let state: JSONValue
    /// A deferred command that was running when the process stopped, or whose node's lease on it
    /// lapsed; it comes back as not executing, with an error saying it was interrupted.
    package let interruptedCommand: String?
    /// A deferred command another node runs now (its lease holds): shown as executing.
    package let runningCommand: String?
    /// The shape its state was stored with; nil for state stored before shapes were kept.
    package let shape: StoredShape?
    /// Whether ``state`` was read from another shape (migrated): the view model continues at a
    /// new version, never under the stored one's ETag.
    package var isUpgraded = false

    /// Creates a restored view model.
    package init(version: Int, state: JSONValue, interruptedCommand: String?, runningCommand: String? = nil, shape: StoredShape? = nil) {
        self.shape = shape
        self.version = version
        self.state = state
        self.interruptedCommand = interruptedCommand
        self.runningCommand = runningCommand
    }
}

extension RestoredViewModel {
    /// The same record with its state read by `shape`: migrated and checked (see
    /// ``PersistedShape/read(_:storedAs:)``).
    package func read(by shape: PersistedShape) throws(PersistedStateError) -> RestoredViewModel {
        let read = try shape.read(state, storedAs: self.shape)
        var upgraded = RestoredViewModel(
            version: version, state: read.state, interruptedCommand: interruptedCommand, runningCommand: runningCommand,
            shape: read.upgraded ? shape.stored : self.shape
        )
        upgraded.isUpgraded = read.upgraded
        return upgraded
    }
}
