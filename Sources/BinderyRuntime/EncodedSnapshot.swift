import Foundation

/// A view model's snapshot at one version, encoded once and served many times.
public struct EncodedSnapshot: Sendable, Equatable {
    /// The view model's path, e.g. `form` or `gallery/photos/3`.
    public let path: String
    /// The version this snapshot shows.
    public let version: Int
    /// The snapshot as UTF-8 JSON.
    public let bytes: [UInt8]

    /// Creates an encoded snapshot.
    public init(path: String, version: Int, bytes: [UInt8]) {
        self.path = path
        self.version = version
        self.bytes = bytes
    }
}
