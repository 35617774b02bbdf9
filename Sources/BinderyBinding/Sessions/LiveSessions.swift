import BinderyStore

/// The sessions in memory, found by secret (requests) and by key (another node's change
/// notifications name sessions by key), with how many each address created.
struct LiveSessions {
    private var bySecret: [SessionSecret: Session] = [:]
    private var byHash: [SessionTokenHash: Session] = [:]
    private var countByAddress: [String: Int] = [:]

    /// The session with this secret; setting nil removes it.
    subscript(secret: SessionSecret) -> Session? {
        get { bySecret[secret] }
        set {
            if let old = bySecret[secret] {
                if byHash[old.tokenHash] === old { byHash[old.tokenHash] = nil }
                if let address = old.address { countByAddress[address, default: 1] -= 1 }
                if let address = old.address, countByAddress[address] == 0 { countByAddress[address] = nil }
            }
            bySecret[secret] = newValue
            if let newValue {
                byHash[newValue.tokenHash] = newValue
                if let address = newValue.address { countByAddress[address, default: 0] += 1 }
            }
        }
    }

    /// Files `session` under its new secret (a sign-in replaced `old`); false when it is no
    /// longer here under `old` (it left memory meanwhile).
    mutating func move(_ session: Session, from old: SessionSecret) -> Bool {
        guard bySecret[old] === session else { return false }
        bySecret[old] = nil
        bySecret[session.secret] = session
        return true
    }

    /// How many live sessions the address created.
    func count(from address: String) -> Int { countByAddress[address] ?? 0 }

    /// The address that created the most live sessions; nil when none has more than one.
    var busiestAddress: String? {
        countByAddress.max { $0.value < $1.value }.flatMap { $0.value > 1 ? $0.key : nil }
    }

    /// The session of `address` (of all sessions when nil) that gives way to a new one: the least
    /// recently active of those never written to, or when every one was, of all. A flood of
    /// sessions from an address that others share (a NAT, a proxy) then pushes out its own empty
    /// sessions, not a user's work.
    func leastRecentlyActive(from address: String?, at now: ContinuousClock.Instant) -> Session? {
        let candidates = address.map { address in bySecret.values.filter { $0.address == address } } ?? Array(bySecret.values)
        return candidates.min { first, second in
            let (a, b) = (first.hasBeenWritten, second.hasBeenWritten)
            return a != b ? !a : first.lastActive(at: now) < second.lastActive(at: now)
        }
    }

    /// The session with this key.
    subscript(hash hash: SessionTokenHash) -> Session? { byHash[hash] }

    /// Every live session.
    var values: Dictionary<SessionSecret, Session>.Values { bySecret.values }
    /// How many there are.
    var count: Int { bySecret.count }

    /// Forgets every session.
    mutating func removeAll() {
        bySecret.removeAll()
        byHash.removeAll()
        countByAddress.removeAll()
    }
}
