import Foundation

/// One entry of a view model's version log.
package struct LoggedVersion: Hashable, Sendable {
    /// The version number.
    package var version: Int
    /// The full snapshot at that version, as written.
    package var snapshot: Data
    /// When that version was written.
    package var loggedAt: Date

    /// A log entry.
    package init(version: Int, snapshot: Data, loggedAt: Date) {
        self.version = version
        self.snapshot = snapshot
        self.loggedAt = loggedAt
    }
}

/// The answer to "which versions came after V?".
package enum VersionHistory: Hashable, Sendable {
    /// Every version after V, oldest first; empty when V is the current version.
    case versions([LoggedVersion])
    /// The log no longer reaches back to V + 1 (pruned, never logged, or V is unknown): send one
    /// full snapshot instead.
    case unavailable
}
