import Foundation

/// The SHA-256 hash of a session token: the only form of a token the store ever sees.
public struct SessionTokenHash: Hashable, Sendable, CustomStringConvertible {
    /// The number of bytes in a SHA-256 digest.
    public static let byteCount = 32

    /// The 32 digest bytes.
    public let bytes: Data

    /// Wraps digest bytes computed by the caller; `nil` unless there are exactly 32 of them.
    public init?(bytes: Data) {
        guard bytes.count == Self.byteCount else { return nil }
        self.bytes = Data(bytes)
    }

    /// The first 8 hex digits: enough to tell hashes apart in logs and test failures.
    public var description: String {
        bytes.prefix(4).map { String(format: "%02x", $0) }.joined()
    }

    /// Byte-wise order, the same as SQLite's order of BLOBs of equal length.
    func precedes(_ other: SessionTokenHash) -> Bool {
        bytes.lexicographicallyPrecedes(other.bytes)
    }
}
