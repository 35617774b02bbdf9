import Foundation

/// How much of each view model's version log is kept: the entries of the last `maxCount`
/// versions, none older than `maxAge`, counted from the time of the latest write to that view
/// model.
///
/// The count is of versions, not of entries: after a write of version V the log keeps the
/// entries above V − `maxCount`. A view model's versions go up one at a time (a failed commit
/// rolls its version back too), so this is its last `maxCount` entries; a writer that skips
/// versions keeps fewer, never more. Every store finds it from the write alone, without
/// reading the log.
package struct VersionLogPolicy: Hashable, Sendable {
    /// How many versions back the log reaches; at least 1.
    package var maxCount: Int
    /// The oldest an entry may be, in seconds, at the time of a write; at least 0, so a write's
    /// own entry is always kept.
    package var maxAge: TimeInterval

    /// A policy; `maxCount` is raised to 1 and `maxAge` to 0 if lower.
    package init(maxCount: Int = 64, maxAge: TimeInterval = 15 * 60) {
        self.maxCount = max(1, maxCount)
        self.maxAge = max(0, maxAge)
    }

    /// The highest version the count drops once version `newest` is logged: everything at or
    /// below it goes (it need not be a logged version). `Int.min` for a version that low.
    func highestVersionDroppedByCount(newest: Int) -> Int {
        let (floor, overflow) = newest.subtractingReportingOverflow(maxCount)
        return overflow ? .min : floor
    }

    /// The highest version the age drops, given the entries newest first and the time of the
    /// latest write; `nil` when none is too old. Everything at or below it goes, so the log
    /// always covers one unbroken run of versions.
    func highestVersionDroppedByAge(
        newestFirst entries: some Sequence<(version: Int, loggedAt: Date)>, now: Date
    )
        -> Int?
    {
        let cutoff = now.addingTimeInterval(-maxAge)
        return entries.first { $0.loggedAt < cutoff }?.version
    }
}
