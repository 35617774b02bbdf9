import Foundation

/// The SHA-256 hash of a session token: the only form of a token the store ever sees.
///
/// Held inline as four words: every live session, store key and change notification carries
/// one, and `Data` would put the 32 bytes in an allocation of their own.
package struct SessionTokenHash: Hashable, Sendable, CustomStringConvertible {
    /// The number of bytes in a SHA-256 digest.
    package static let byteCount = 32

    /// The digest's bytes, eight at a time, each word big-endian (so words compare as the bytes).
    private let words: (UInt64, UInt64, UInt64, UInt64)

    /// Wraps digest bytes computed by the caller; `nil` unless there are exactly 32 of them.
    package init?(bytes: Data) {
        guard bytes.count == Self.byteCount else { return nil }
        var raw: (UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0)
        withUnsafeMutableBytes(of: &raw) { $0.copyBytes(from: bytes) }
        words = (UInt64(bigEndian: raw.0), UInt64(bigEndian: raw.1), UInt64(bigEndian: raw.2), UInt64(bigEndian: raw.3))
    }

    /// The 32 digest bytes.
    package var bytes: Data {
        var data = Data(capacity: Self.byteCount)
        for word in [words.0, words.1, words.2, words.3] {
            withUnsafeBytes(of: word.bigEndian) { data.append(contentsOf: $0) }
        }
        return data
    }

    /// The first 8 hex digits: enough to tell hashes apart in logs and test failures.
    package var description: String {
        let digits = String(words.0 >> 32, radix: 16)
        return String(repeating: "0", count: 8 - digits.count) + digits
    }

    /// Byte-wise order, the same as SQLite's order of BLOBs of equal length.
    func precedes(_ other: SessionTokenHash) -> Bool {
        (words.0, words.1, words.2, words.3) < (other.words.0, other.words.1, other.words.2, other.words.3)
    }

    /// Whether the two hashes have the same bytes.
    package static func == (lhs: SessionTokenHash, rhs: SessionTokenHash) -> Bool {
        lhs.words == rhs.words
    }

    /// Feeds the bytes to `hasher`.
    package func hash(into hasher: inout Hasher) {
        hasher.combine(words.0)
        hasher.combine(words.1)
        hasher.combine(words.2)
        hasher.combine(words.3)
    }
}
