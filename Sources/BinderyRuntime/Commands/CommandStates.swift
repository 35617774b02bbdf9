/// What Bindery keeps on one view model: the live ``Command`` states, made on first use from
/// its declaration, and the path it is served at.
public final class CommandStates {
    /// Where the view model is served (`list/items/scenic-1`), set when a session hosts it.
    package var servedPath: String?

    /// A view model declares a handful of commands: a scan of an array beats a dictionary's
    /// storage, several times the size of its few entries.
    private var states: [Command] = []

    /// Creates an empty set; states appear as commands are first rendered or executed.
    public init() {}

    /// Cancels every running and queued execution of every command.
    package func cancelAll() {
        states.forEach { _ = $0.cancelAll() }
    }

    /// The key of a keyed execution of one of its commands (each keeps its newest) that succeeded
    /// and whose end no committed version shows yet (see ``Command/succeededClaim``).
    package var succeededClaim: RequestClaim? {
        states.lazy.compactMap(\.succeededClaim).first
    }

    /// Forgets `claim` as a succeeded execution's (see ``Command/forgetSucceededClaim(_:)``).
    package func forgetSucceededClaim(_ claim: RequestClaim) {
        states.forEach { $0.forgetSucceededClaim(claim) }
    }

    /// The state of the command `name` under `policy`.
    func state(_ name: String, policy: CommandPolicy) -> Command {
        if let state = states.first(where: { $0.name == name }) { return state }
        let state = Command(name, policy: policy)
        states.append(state)
        return state
    }
}
