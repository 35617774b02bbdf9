/// Why stored state cannot be read with the current declaration. Such state is never dropped
/// and never overwritten: the server refuses to start (or, if told to, sets it aside), and a
/// request that meets it is refused.
public enum PersistedStateError: Error, Sendable, Hashable, CustomStringConvertible {
    /// It was written by a newer declaration (a node running newer code, during a rolling deploy
    /// or after a rollback): this one must not read it, nor write over it.
    case newer(storedVersion: Int, knownVersion: Int)
    /// A migration threw.
    case migrationFailed(storedVersion: Int, migration: String, reason: String)
    /// After its migrations, reading it would lose `member`: not declared any more, of another
    /// type, or missing a field its type needs.
    case unreadable(storedVersion: Int, member: String, reason: String)

    /// The version the state was stored at.
    public var storedVersion: Int {
        switch self {
        case .newer(let version, _), .migrationFailed(let version, _, _), .unreadable(let version, _, _): version
        }
    }

    /// The member concerned, when one is.
    public var member: String? {
        if case .unreadable(_, let member, _) = self { member } else { nil }
    }

    /// One sentence.
    public var description: String {
        switch self {
        case .newer(let stored, let known):
            "stored at persisted version \(stored), newer than this build's \(known)"
        case .migrationFailed(let stored, let migration, let reason):
            "stored at persisted version \(stored): the migration that \(migration) failed: \(reason)"
        case .unreadable(let stored, let member, let reason):
            "stored at persisted version \(stored): member `\(member)` \(reason)"
        }
    }
}
