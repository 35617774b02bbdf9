/// An account of the upstream's accounts service: who a phone number and password sign in as
/// (the seed's login form, for real). The service keeps a bcrypt hash of the password, never
/// the password.
public struct Account: Sendable, Equatable, Hashable, Identifiable {
    /// The account's stable id (`"u-lilei"`).
    public var id: String
    /// The phone number it signs in with.
    public var phone: String
    /// Its holder's name.
    public var name: String
    /// Its roles (`admin`).
    public var roles: [String]

    /// Creates an account.
    public init(id: String, phone: String, name: String, roles: [String] = []) {
        self.id = id
        self.phone = phone
        self.name = name
        self.roles = roles
    }
}

/// An account as the service stores it: with its password's bcrypt hash.
struct AccountRecord: Sendable, Decodable {
    var id: String
    var phone: String
    var name: String
    var roles: [String]
    var passwordHash: String

    /// The account without its hash.
    var account: Account { Account(id: id, phone: phone, name: name, roles: roles) }
}
