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

    /// The strong entity tag for this version: `"<version>"`.
    public var etag: String { "\"\(version)\"" }

    /// Whether an `If-Match` / `If-None-Match` value names this version (`*` names any).
    public func isNamed(by header: String) -> Bool {
        header.split(separator: ",").contains { tag in
            let trimmed = tag.trimmingCharacters(in: .whitespaces)
            return trimmed == "*" || trimmed == etag || trimmed == "W/\(etag)"
        }
    }
}
