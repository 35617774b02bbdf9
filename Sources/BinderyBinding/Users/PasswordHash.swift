import Dispatch
import HummingbirdBcrypt

/// Password hashes made and checked with bcrypt (hummingbird-auth's `HummingbirdBcrypt`), off
/// Swift's cooperative threads: a check takes tens of milliseconds by design, and would stall
/// every session's work sharing those threads.
///
/// ```swift
/// let hash = await PasswordHash.make("correct horse")            // store this, never the password
/// let ok = await PasswordHash.verify(typed, against: storedHash)  // nil hash: false, as slowly
/// ```
public enum PasswordHash {
    /// The work factor new hashes get: 2^12 rounds (OWASP asks for 10 at least).
    public static let defaultCost: UInt8 = 12

    /// A salted bcrypt hash of `password` at `cost` (4...31).
    public static func make(_ password: String, cost: UInt8 = defaultCost) async -> String {
        await offPool { Bcrypt.hash(password, cost: min(31, max(4, cost))) }
    }

    /// Whether `password` matches `hash`. With no hash (no such account) it checks against a fixed
    /// one and answers false, taking as long: how long a sign-in takes says nothing about whether
    /// the account exists. The comparison itself is bcrypt's own, in constant time.
    public static func verify(_ password: String, against hash: String?) async -> Bool {
        await offPool { Bcrypt.verify(password, hash: hash ?? Self.absentAccount) && hash != nil }
    }

    /// A bcrypt hash (cost 12, as new hashes) of a random password nobody knows: what a missing account is checked
    /// against.
    static let absentAccount = "$2b$12$qF/OAR66PquXOSNAkj54n.s2VeyIIoqqirKR/66jndzyWKLn.ZfhS"

    /// Runs `work` on a dispatch thread and waits for it.
    private static func offPool<T: Sendable>(_ work: @escaping @Sendable () -> T) async -> T {
        await withCheckedContinuation { continuation in
            DispatchQueue.global(qos: .userInitiated).async { continuation.resume(returning: work()) }
        }
    }
}
