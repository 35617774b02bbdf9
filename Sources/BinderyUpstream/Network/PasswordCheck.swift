import Dispatch
import HummingbirdBcrypt

/// How the accounts service checks a password against its bcrypt hash (hummingbird-auth's
/// `HummingbirdBcrypt`), on a dispatch thread: a check takes tens of milliseconds by design.
enum PasswordCheck {
    /// A hash (the accounts' cost, 10) of a random password nobody knows: what a phone number with
    /// no account is checked against, so the answer takes as long as for a wrong password.
    private static let absentAccount = "$2b$10$vK/3nrlR0zsBmhhaybZ9UuRRupOKKRrEzse8Iu/SBeml4/dB/CdZa"

    /// Whether `password` matches `hash`; false, as slowly, when there is no hash.
    static func matches(_ password: String, _ hash: String?) async -> Bool {
        await withCheckedContinuation { continuation in
            DispatchQueue.global(qos: .userInitiated).async {
                let matches = Bcrypt.verify(password, hash: hash ?? absentAccount)
                continuation.resume(returning: matches && hash != nil)
            }
        }
    }
}
