/// The demo accounts of the seed's fake upstream (its `accounts` endpoint), with the passwords
/// its fixture's bcrypt hashes were made from.
public enum DemoAccount: Sendable {
    /// Li Lei, an administrator: may delete the first-start recipes and change the upstream.
    case lilei
    /// Han Meimei, no role.
    case hanmeimei

    /// The phone number the account signs in with.
    public var phone: String {
        switch self {
        case .lilei: "18612345678"
        case .hanmeimei: "13800000000"
        }
    }

    /// Its password.
    public var password: String {
        switch self {
        case .lilei: "passw0rd"
        case .hanmeimei: "hunter22"
        }
    }

    /// Its holder's name, as the server shows it.
    public var name: String {
        switch self {
        case .lilei: "Li Lei"
        case .hanmeimei: "Han Meimei"
        }
    }
}
