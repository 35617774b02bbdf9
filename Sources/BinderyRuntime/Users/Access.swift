/// Who may read or change something — a view model, an input, a command, a shared record:
/// everyone, anyone signed in, holders of a role, or a rule over the user and the thing itself.
///
/// ```swift
/// ViewModelDeclaration<TodosViewModel>("Todos", summary: "My todos.", …)
///     .readable(by: .signedIn)
/// .deferred("delete", summary: "Deletes the list.", …)
///     .executable(by: .when { user, list in list.isOwned(by: user) })
/// ```
///
/// A request refused by a rule changes nothing: `401` with `WWW-Authenticate` when the session
/// is not signed in, `403` when it is but may not. Code that runs outside any request (a test
/// without a viewer, the server's own work) is not checked.
public struct Access<Subject>: Sendable {
    enum Rule: Sendable {
        case everyone
        case signedIn
        case roles(Set<String>)
        case predicate(@Sendable (User, Subject) -> Bool)
    }

    let rule: Rule

    /// Anyone, signed in or not.
    public static var everyone: Self { Self(rule: .everyone) }

    /// Anyone signed in.
    public static var signedIn: Self { Self(rule: .signedIn) }

    /// Users signed in with the role `role` (``User/roles``).
    public static func role(_ role: String) -> Self { Self(rule: .roles([role])) }

    /// Users signed in with any of `roles`.
    public static func anyRole(_ roles: Set<String>) -> Self { Self(rule: .roles(roles)) }

    /// Users signed in for whom `allows` holds, given the subject as it is now (the view model, the
    /// record). Nobody anonymous.
    public static func when(_ allows: @escaping @Sendable (User, Subject) -> Bool) -> Self {
        Self(rule: .predicate(allows))
    }

    /// What the rule says for `user` (nil: anonymous) about `subject`.
    package func decision(for user: User?, _ subject: Subject) -> AccessDecision {
        switch rule {
        case .everyone: return .allowed
        case .signedIn: return user == nil ? .signInRequired : .allowed
        case .roles(let roles):
            guard let user else { return .signInRequired }
            return roles.isDisjoint(with: user.roles) ? .forbidden : .allowed
        case .predicate(let allows):
            guard let user else { return .signInRequired }
            return allows(user, subject) ? .allowed : .forbidden
        }
    }

    /// What the rule says for whoever `viewer` is; code outside a request (no viewer) is allowed.
    package func decision(for viewer: Viewer?, _ subject: Subject) -> AccessDecision {
        guard let viewer else { return .allowed }
        return decision(for: viewer.user, subject)
    }

    /// Whether the rule lets whoever the request is for (``Viewer/current``) at `subject`; true
    /// outside any request. A render that asks renders again when the viewer signs in.
    ///
    /// ```swift
    /// .boolean("deletable") { cell in ItemRules.deleters.allows(cell.item) }
    /// ```
    public func allows(_ subject: Subject) -> Bool {
        decision(for: Viewer.current, subject) == .allowed
    }

    /// Refuses whoever the request is for (``Viewer/current``) unless the rule lets them at
    /// `subject`: ``ViewModelError/signInRequired`` (401) when not signed in, else
    /// ``ViewModelError/forbidden(reason:)`` (403) saying `reason` ("you may not delete item 42").
    /// For a command's `prepare`, where the subject is one its argument names.
    public func check(_ subject: Subject, reason: @autoclosure () -> String) throws(ViewModelError) {
        try decision(for: Viewer.current, subject).enforce(reason())
    }

    /// What can be said of the rule without a subject, for documents and catalogues.
    public var summary: AccessSummary {
        switch rule {
        case .everyone: AccessSummary(signIn: false, roles: [], conditional: false)
        case .signedIn: AccessSummary(signIn: true, roles: [], conditional: false)
        case .roles(let roles): AccessSummary(signIn: true, roles: roles.sorted(), conditional: false)
        case .predicate: AccessSummary(signIn: true, roles: [], conditional: true)
        }
    }

    /// Whether it lets everyone in.
    package var isEveryone: Bool {
        if case .everyone = rule { true } else { false }
    }
}

/// What a rule decided.
package enum AccessDecision: Sendable, Equatable {
    /// Go ahead.
    case allowed
    /// Not signed in, and the rule needs a user: 401.
    case signInRequired
    /// Signed in, and the rule does not let this user: 403.
    case forbidden
}

/// An ``Access`` rule as documents show it: whether it needs a signed-in user, which roles it
/// accepts (any of them; none: any user), and whether it also depends on the subject.
public struct AccessSummary: Sendable, Hashable {
    /// Whether the rule needs a signed-in user.
    public var signIn: Bool
    /// The roles it accepts (any one is enough); empty when any signed-in user may.
    public var roles: [String]
    /// Whether it also depends on the user and the subject (``Access/when(_:)``): a client cannot
    /// tell before it asks.
    public var conditional: Bool

    /// Anyone: no sign-in, no role, no condition.
    public static let everyone = AccessSummary(signIn: false, roles: [], conditional: false)

    /// A summary.
    public init(signIn: Bool, roles: [String], conditional: Bool) {
        self.signIn = signIn
        self.roles = roles
        self.conditional = conditional
    }

    /// Whether a client signed in as `user` (nil: anonymous) may, as far as can be told without
    /// the subject (a conditional rule counts as may).
    public func admits(_ user: User?) -> Bool {
        guard signIn else { return true }
        guard let user else { return false }
        return roles.isEmpty || !Set(roles).isDisjoint(with: user.roles)
    }

    /// Both: what `self` and `other` require together (a child's rule under its parent's).
    package func combined(with other: AccessSummary) -> AccessSummary {
        // Two role lists both apply: only one is shown, and the other makes it conditional.
        let both = !roles.isEmpty && !other.roles.isEmpty && roles != other.roles
        return AccessSummary(
            signIn: signIn || other.signIn, roles: roles.isEmpty ? other.roles : roles,
            conditional: conditional || other.conditional || both
        )
    }

    /// The summary as JSON: `{"signIn": true, "roles": ["admin"], "conditional": false}`.
    package var json: JSONValue {
        ["signIn": .bool(signIn), "roles": .array(roles.map(JSONValue.string)), "conditional": .bool(conditional)]
    }
}
