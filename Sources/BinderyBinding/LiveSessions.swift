import BinderyStore

/// The sessions in memory, found by token (requests) and by token hash (another node's change
/// notifications name sessions by hash).
struct LiveSessions {
    private var byToken: [String: Session] = [:]
    private var byHash: [SessionTokenHash: Session] = [:]

    /// The session with this token; setting nil removes it.
    subscript(token: String) -> Session? {
        get { byToken[token] }
        set {
            if let old = byToken[token] { byHash[old.tokenHash] = nil }
            byToken[token] = newValue
            if let newValue { byHash[newValue.tokenHash] = newValue }
        }
    }

    /// The session whose token has this hash.
    subscript(hash hash: SessionTokenHash) -> Session? { byHash[hash] }

    /// Every live session.
    var values: Dictionary<String, Session>.Values { byToken.values }
    /// How many there are.
    var count: Int { byToken.count }

    /// Forgets every session.
    mutating func removeAll() {
        byToken.removeAll()
        byHash.removeAll()
    }
}
