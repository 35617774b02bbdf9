import Foundation

/// How much of each view model's version log is kept: the last `maxCount` entries, none older
/// than `maxAge`, counted from the time of the latest write to that view model.
public struct VersionLogPolicy: Hashable, Sendable {
    /// The most entries kept per view model; at least 1.
    public var maxCount: Int
    /// The oldest an entry may be, in seconds, at the time of a write; at least 0, so a write's
    /// own entry is always kept.
    public var maxAge: TimeInterval

    /// A policy; `maxCount` is raised to 1 and `maxAge` to 0 if lower.
    public init(maxCount: Int = 64, maxAge: TimeInterval = 15 * 60) {
        self.maxCount = max(1, maxCount)
        self.maxAge = max(0, maxAge)
    }

    /// The highest version to drop from a log, given its entries newest first and the time of
    /// the write that triggers pruning; `nil` when nothing is dropped. Everything at or below it
    /// goes, so the log always covers one unbroken run of versions.
    func highestDroppedVersion(newestFirst entries: some Sequence<(version: Int, loggedAt: Date)>, now: Date) -> Int? {
        let cutoff = now.addingTimeInterval(-maxAge)
        for (index, entry) in entries.enumerated() where index >= maxCount || entry.loggedAt < cutoff {
            return entry.version
        }
        return nil
    }
}
