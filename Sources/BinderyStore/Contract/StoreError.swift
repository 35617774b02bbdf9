/// Why a store operation failed. Every description is one line and names no token.
package enum StoreError: Error, Hashable, Sendable, CustomStringConvertible {
    /// A write expected a version that is not the stored one: another writer got there first.
    /// Only the writes of that caller fail; the caller reloads and retries (or answers 409/412).
    case conflict(ViewModelKey, expected: Int?, stored: Int?)
    /// A write's new version is not above the version it replaces.
    case versionNotIncreasing(ViewModelKey, expected: Int?, version: Int)
    /// The session does not exist (never created, deleted, purged or evicted).
    case sessionNotFound(SessionTokenHash)
    /// A session with this token hash exists already.
    case sessionExists(SessionTokenHash)
    /// The transaction holding the write did not commit (disk full, I/O error, store closed):
    /// nothing of it was stored. Map it to 503.
    case unavailable(reason: String)
    /// The store file could not be opened, created or migrated, or is corrupt.
    case cannotOpen(path: String, reason: String)
    /// A write's idempotency key was claimed by another execution of the same request: nothing of
    /// the caller's transaction was stored, and the other execution's answer is the one.
    case keyClaimed(key: String)

    /// One line saying what happened.
    package var description: String {
        switch self {
        case .conflict(let key, let expected, let stored):
            "version conflict on \(key): expected \(Self.describe(expected)), stored \(Self.describe(stored))"
        case .versionNotIncreasing(let key, let expected, let version):
            "version \(version) of \(key) does not follow \(Self.describe(expected))"
        case .sessionNotFound(let hash):
            "no stored session \(hash)"
        case .sessionExists(let hash):
            "stored session \(hash) exists already"
        case .unavailable(let reason):
            "store unavailable: \(Self.oneLine(reason))"
        case .cannotOpen(let path, let reason):
            "cannot open store \(path): \(Self.oneLine(reason))"
        case .keyClaimed:
            "the idempotency key was claimed by another execution"
        }
    }

    private static func describe(_ version: Int?) -> String {
        version.map(String.init) ?? "none"
    }

    /// Joins the lines of an underlying error's text, so a description stays on one line.
    static func oneLine(_ text: String) -> String {
        text.split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }.joined(separator: " ")
    }
}
