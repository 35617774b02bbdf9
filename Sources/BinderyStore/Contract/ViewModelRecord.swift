import Foundation

/// A view model's persisted state, as loaded when a session is restored.
package struct ViewModelRecord: Hashable, Sendable {
    /// Which view model this is.
    package var key: ViewModelKey
    /// The view model's current version; the next write must expect it.
    package var version: Int
    /// Opaque JSON bytes: the inputs and the command results that cannot be re-derived.
    package var state: Data
    /// The deferred command that was running at the last write, if any.
    package var command: CommandState?
    /// The persisted shape its state was written with (`v2:1f0c…`); nil for state written before
    /// shapes were kept.
    package var shape: String?

    /// A record.
    package init(key: ViewModelKey, version: Int, state: Data, command: CommandState?, shape: String? = nil) {
        self.shape = shape
        self.key = key
        self.version = version
        self.state = state
        self.command = command
    }
}
