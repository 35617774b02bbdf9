import Foundation

/// One view model's new state, written only if the stored version is still the expected one.
package struct ViewModelWrite: Hashable, Sendable {
    /// Which view model is written; its session must exist.
    package var key: ViewModelKey
    /// The version this write replaces: `nil` for the first write of this view model.
    package var expected: Int?
    /// The new version; greater than `expected` (versions never go backwards).
    package var version: Int
    /// Opaque JSON bytes: the inputs and the command results that cannot be re-derived.
    package var state: Data
    /// The full snapshot at `version`, appended to the version log; `nil` leaves a gap, so clients
    /// older than `version` get a full snapshot instead of the log.
    package var snapshot: Data?
    /// The deferred command running after this write, or `nil` when none is.
    package var runningCommand: DeferredCommand?
    /// When the write happened: the log entry's time and the session's last use.
    package var at: Date
    /// The idempotency key of the request that made the write, claimed in the same transaction.
    package var claim: IdempotencyClaim?
    /// The persisted shape `state` is written with (`v2:1f0c…`), kept beside it.
    package var shape: String?

    /// A write.
    package init(
        key: ViewModelKey,
        expected: Int?,
        version: Int,
        state: Data,
        snapshot: Data?,
        runningCommand: DeferredCommand? = nil,
        at: Date,
        claim: IdempotencyClaim? = nil,
        shape: String? = nil
    ) {
        self.shape = shape
        self.key = key
        self.expected = expected
        self.version = version
        self.state = state
        self.snapshot = snapshot
        self.runningCommand = runningCommand
        self.at = at
        self.claim = claim
    }
}
