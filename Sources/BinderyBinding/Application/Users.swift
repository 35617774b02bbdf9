import BinderyRuntime

/// How an app signs people in: it checks credentials, Bindery does the rest — the sign-in route
/// (`POST /api/session/sign-in`) and view-model sign-in commands, limits on failed attempts, a new
/// session token on every sign-in, sign-out here and everywhere.
///
/// ```swift
/// let accounts: [String: (hash: String, user: User)] = …   // hashes made with PasswordHash.make
/// let users = Users { credentials in
///     let account = accounts[credentials.username]
///     // Verify against a dummy hash when the account does not exist: the answer takes as long.
///     guard await PasswordHash.verify(credentials.password, against: account?.hash) else { return nil }
///     return account?.user
/// }
/// let app = BinderyApp(screens: …, users: users)
/// ```
///
/// The verifier answers the user the credentials belong to, or nil when they are wrong (no such
/// account, or another password: the client is told the same either way, 422). Throw when they
/// cannot be checked now (the accounts service is down): the client gets 502 and nothing changes.
public struct Users: Sendable {
    /// Checks credentials: the user, nil when wrong; throws when they cannot be checked.
    public let verify: @Sendable (Credentials) async throws -> User?

    /// Users checked by `verify`.
    public init(verify: @escaping @Sendable (Credentials) async throws -> User?) {
        self.verify = verify
    }
}
