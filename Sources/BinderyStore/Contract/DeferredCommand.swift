import Foundation

/// A deferred command that was started and has not finished: enough to report it after a crash.
package struct DeferredCommand: Hashable, Sendable {
    /// The command's name, as the view model declares it.
    package var name: String
    /// When the command started, as given by the caller.
    package var startedAt: Date
    /// When the node running it last renewed its lease on it (a shared store); its start until
    /// the first renewal.
    package var renewedAt: Date

    /// A running command, renewed last at `renewedAt` (by default, when it started).
    package init(name: String, startedAt: Date, renewedAt: Date? = nil) {
        self.name = name
        self.startedAt = startedAt
        self.renewedAt = renewedAt ?? startedAt
    }
}

/// What the store knows of a view model's deferred command.
package enum CommandState: Hashable, Sendable {
    /// The command was running when last written, and the process is believed to be alive.
    case running(DeferredCommand)
    /// The command was running when the process stopped: it will never finish.
    case interrupted(DeferredCommand)
}
