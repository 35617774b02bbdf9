/// One command of a view model type (an execution binding): its argument, what its result may
/// carry, its concurrency policy, when it is enabled, and its work.
public struct CommandDeclaration<Model: AnyObject>: Sendable {
    /// The command's name in snapshots and URLs.
    public let name: String
    /// What the command does, for documents.
    public let summary: String
    /// The object the command takes as its body; nil when it takes none.
    public let argument: Schema?
    /// Whether a successful execution may answer `navigate`.
    public let navigates: Bool
    /// What happens to an execution while another runs.
    public let policy: CommandPolicy
    /// Whether the work awaits (deferred) or finishes at once (immediate).
    public let isDeferred: Bool
    /// Who may run it, besides the view model's own rule (``executable(by:)``).
    public private(set) var executeAccess: Access<Model> = .everyone
    /// Whether it signs the session in (``signIn(_:summary:enabled:refusal:credentials:signedIn:)``).
    public private(set) var signsIn = false
    let enabled: @Sendable (Model) -> Bool
    let prepare: @Sendable (Model, JSONValue?) throws(ViewModelError) -> Command.Work

    /// Checks `argument` against the declared schema, then lets the command prepare its work;
    /// throws without changing anything.
    func work(for model: Model, argument: JSONValue?) throws(ViewModelError) -> Command.Work {
        switch (self.argument, argument) {
        case (nil, nil), (nil, .null?):
            break
        case (nil, .object(let members)?) where members.isEmpty:
            break
        case (nil, _?):
            throw .invalidArgument(command: name, reason: "this command takes no argument")
        case (let schema?, let value):
            if let reason = schema.violation(by: value ?? .null) {
                throw .invalidArgument(command: name, reason: reason)
            }
        }
        return try prepare(model, argument)
    }
}

extension CommandDeclaration {
    /// The same command, run only by users `access` lets (on top of the view model's own rule,
    /// ``ViewModelDeclaration/writable(by:)``); anyone else is refused (401 or 403) and nothing
    /// changes. Snapshots show it disabled to them.
    ///
    /// ```swift
    /// .immediate("purge", summary: "Empties the bin.", run: { model, _ in … }).executable(by: .role("admin"))
    /// ```
    public func executable(by access: Access<Model>) -> Self {
        var command = self
        command.executeAccess = access
        return command
    }

    /// A command whose work finishes at once (form `clear`, `select`).
    ///
    /// `run` gets the checked argument; it may still refuse it (an id that names nothing) by
    /// throwing before it changes anything.
    public static func immediate(
        _ name: String,
        summary: String,
        argument: Schema? = nil,
        navigates: Bool = false,
        policy: CommandPolicy = .serial,
        enabled: @escaping @Sendable (Model) -> Bool = { _ in true },
        run: @escaping @Sendable (Model, JSONValue?) throws(ViewModelError) -> CommandResult
    ) -> Self {
        Self(
            name: name, summary: summary, argument: argument, navigates: navigates, policy: policy,
            isDeferred: false, enabled: enabled,
            prepare: { model, argument throws(ViewModelError) in
                .immediate { () throws(ViewModelError) in try run(model, argument) }
            }
        )
    }

    /// A command whose work awaits (list `load`). It runs on the session's actor and can be
    /// cancelled; a cancelled execution must leave the view model as it was.
    ///
    /// `prepare` checks the argument against the state and returns the work.
    public static func deferred(
        _ name: String,
        summary: String,
        argument: Schema? = nil,
        navigates: Bool = false,
        policy: CommandPolicy = .serial,
        enabled: @escaping @Sendable (Model) -> Bool = { _ in true },
        prepare: @escaping @Sendable (Model, JSONValue?) throws(ViewModelError) -> Command.DeferredWork
    ) -> Self {
        Self(
            name: name, summary: summary, argument: argument, navigates: navigates, policy: policy,
            isDeferred: true, enabled: enabled,
            prepare: { model, argument throws(ViewModelError) in .deferred(try prepare(model, argument)) }
        )
    }
}

extension CommandDeclaration {
    /// A command that signs the session in with the credentials the view model holds (a login
    /// form's `signIn`): the server limits attempts (429), checks the credentials with the app's
    /// `Users` verifier and replaces the session's token, keeping its state. It is always
    /// answered once done, and its answer carries the new token (`token`) and cookie; the old
    /// token is refused from then on.
    ///
    /// Wrong credentials fail the command with `refusal` (422, the same whether the account
    /// exists or not); a verifier that cannot check them (its upstream failed) fails it as
    /// that failure (502). Either way nothing changes. `signedIn` runs on success, on the
    /// session's actor (clear the password field there).
    ///
    /// ```swift
    /// .signIn("signIn", summary: "Signs in.", enabled: { $0.isValid },
    ///         credentials: { Credentials(username: $0.phone, password: $0.password) },
    ///         signedIn: { form, _ in form.password = "" })
    /// ```
    public static func signIn(
        _ name: String,
        summary: String,
        enabled: @escaping @Sendable (Model) -> Bool = { _ in true },
        refusal: String = "Wrong username or password.",
        credentials: @escaping @Sendable (Model) -> Credentials,
        signedIn: (@Sendable (Model, User) -> Void)? = nil
    ) -> Self {
        var command = Self(
            name: name, summary: summary, argument: nil, navigates: false, policy: .serial, isDeferred: true,
            enabled: enabled,
            prepare: { model, _ throws(ViewModelError) in
                let submitted = credentials(model)
                guard let service = Viewer.current?.signInService else {
                    return .deferred { throw ExecutionFailure(message: "This session cannot sign in here.", origin: .internal) }
                }
                try service.admit(account: submitted.username)
                return .deferred {
                    guard let user = try await service.signIn(submitted) else { throw ExecutionFailure.signInRefused(refusal) }
                    signedIn?(model, user)
                    return .none
                }
            }
        )
        command.signsIn = true
        return command
    }
}

/// A command's argument as a type of its own: declared once with its schema, decoded from the
/// request's JSON after the schema checked it, so the command's work reads typed fields.
///
/// ```swift
/// struct SelectItem: CommandArgument {
///     let id: String
///     static let schema = Schema.named("SelectItemArgument", .object(["id": .text]))
/// }
/// ```
public protocol CommandArgument: Decodable, Sendable {
    /// The JSON the argument accepts (documents and validation); a value it accepts must decode.
    static var schema: Schema { get }
}

extension CommandDeclaration {
    /// An immediate command taking a typed `Argument` (see ``immediate(_:summary:argument:navigates:policy:enabled:run:)``).
    public static func immediate<Argument: CommandArgument>(
        _ name: String,
        summary: String,
        argument: Argument.Type,
        navigates: Bool = false,
        policy: CommandPolicy = .serial,
        enabled: @escaping @Sendable (Model) -> Bool = { _ in true },
        run: @escaping @Sendable (Model, Argument) throws(ViewModelError) -> CommandResult
    ) -> Self {
        immediate(
            name, summary: summary, argument: Argument.schema, navigates: navigates, policy: policy, enabled: enabled,
            run: { model, json throws(ViewModelError) in try run(model, try Argument.decode(json, command: name)) }
        )
    }

    /// A deferred command taking a typed `Argument` (see ``deferred(_:summary:argument:navigates:policy:enabled:prepare:)``).
    public static func deferred<Argument: CommandArgument>(
        _ name: String,
        summary: String,
        argument: Argument.Type,
        navigates: Bool = false,
        policy: CommandPolicy = .serial,
        enabled: @escaping @Sendable (Model) -> Bool = { _ in true },
        prepare: @escaping @Sendable (Model, Argument) throws(ViewModelError) -> Command.DeferredWork
    ) -> Self {
        deferred(
            name, summary: summary, argument: Argument.schema, navigates: navigates, policy: policy, enabled: enabled,
            prepare: { model, json throws(ViewModelError) in try prepare(model, try Argument.decode(json, command: name)) }
        )
    }
}

extension CommandArgument {
    /// The argument in `json`, which the schema accepted; refused naming the command when it does
    /// not decode (a schema and a type that disagree).
    static func decode(_ json: JSONValue?, command: String) throws(ViewModelError) -> Self {
        guard let argument = (json ?? .null).decoded(as: Self.self) else {
            throw .invalidArgument(command: command, reason: "the argument does not have the shape the command reads")
        }
        return argument
    }
}
