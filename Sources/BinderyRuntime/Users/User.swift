/// A person signed in to a session: who the app's `Users` verifier said the credentials belong
/// to. A session is anonymous until it signs in; its view models read the user from their
/// ``Viewer``.
///
/// ```swift
/// User(id: "u-42", name: "Li Lei", roles: ["admin"])
/// ```
///
/// `id` is what the app's data is keyed by (a user's records, an owner) and what logs name, so
/// it must be stable and must not be a secret (not an email address or a phone number if those
/// are private). `roles` and `claims` are what the verifier said at sign-in; they stay with the
/// session until it signs in again.
public struct User: Sendable, Hashable, Codable {
    /// A stable id, unique in the app.
    public var id: String
    /// A name to show (presence, "deleted by").
    public var name: String
    /// Roles that access rules name (``Access/role(_:)``), e.g. `admin`.
    public var roles: Set<String>
    /// Anything else the verifier knows about the user, by name.
    public var claims: [String: String]

    /// A user with `id`, shown as `name`.
    public init(id: String, name: String, roles: Set<String> = [], claims: [String: String] = [:]) {
        self.id = id
        self.name = name
        self.roles = roles
        self.claims = claims
    }

    /// Reads a user; `roles` and `claims` may be missing (none).
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            id: try container.decode(String.self, forKey: .id), name: try container.decode(String.self, forKey: .name),
            roles: try container.decodeIfPresent(Set<String>.self, forKey: .roles) ?? [],
            claims: try container.decodeIfPresent([String: String].self, forKey: .claims) ?? [:]
        )
    }

    /// Whether the user has the role `role`.
    public func has(role: String) -> Bool { roles.contains(role) }

    /// The user as JSON: `{"id", "name", "roles"}` (roles sorted); claims are the server's own.
    package var json: JSONValue {
        ["id": .string(id), "name": .string(name), "roles": .array(roles.sorted().map(JSONValue.string))]
    }

    /// The shape of ``json``.
    package static let schema = Schema.named(
        "User", .object(["id": .text, "name": .text, "roles": .array(.text)])
    )
}

/// A username and a password, as a sign-in submits them (`POST /api/session/sign-in`, or a view
/// model's sign-in command). Never logged, never stored.
public struct Credentials: Sendable, Hashable {
    /// The account's name as the user typed it (an email, a phone number, a login).
    public var username: String
    /// The password as the user typed it.
    public var password: String

    /// Credentials of `username` and `password`.
    public init(username: String, password: String) {
        self.username = username
        self.password = password
    }
}

extension Credentials: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    /// The username with the password masked: printing or logging credentials shows no secret.
    public var description: String { "Credentials(username: \(username), password: ***)" }
    /// As ``description``.
    public var debugDescription: String { description }
    /// The username alone: `dump` and debuggers show no password either.
    public var customMirror: Mirror { Mirror(self, children: ["username": username, "password": "***"]) }
}
