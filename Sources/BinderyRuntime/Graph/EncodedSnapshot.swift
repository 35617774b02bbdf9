import Foundation

/// A view model's snapshot at one version, encoded once and served many times.
package struct EncodedSnapshot: Sendable, Equatable {
    /// The view model's path, e.g. `counter` or `list/items/3`.
    package let path: String
    /// The version this snapshot shows.
    package let version: Int
    /// The snapshot as UTF-8 JSON.
    package let bytes: [UInt8]
    /// An RFC 6902 JSON Patch from the previous committed version (``patchBase``) to this one,
    /// as UTF-8 JSON; only on the copies pushed to watchers, and only when a watcher could use it.
    package let patch: [UInt8]?
    /// The version ``patch`` applies to.
    package let patchBase: Int?
    /// The edits of collaborative texts between the previous pushed version and this one (an
    /// `edits` event's data), on the copies pushed to watchers when a text changed.
    package var textEdits: [UInt8]?

    /// Creates an encoded snapshot, with a patch from `patchBase` when one was computed.
    package init(path: String, version: Int, bytes: [UInt8], patch: [UInt8]? = nil, patchBase: Int? = nil) {
        self.path = path
        self.version = version
        self.bytes = bytes
        self.patch = patch
        self.patchBase = patchBase
    }
}
