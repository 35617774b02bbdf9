/// The live ``Command`` states of one view model, made on first use from its declaration.
public final class CommandStates {
    /// A view model declares a handful of commands: a scan of an array beats a dictionary's
    /// storage, several times the size of its few entries.
    private var states: [Command] = []

    /// Creates an empty set; states appear as commands are first rendered or executed.
    public init() {}

    /// Cancels every running and queued execution of every command.
    package func cancelAll() {
        states.forEach { _ = $0.cancelAll() }
    }

    /// The state of the command `name` under `policy`.
    func state(_ name: String, policy: CommandPolicy) -> Command {
        if let state = states.first(where: { $0.name == name }) { return state }
        let state = Command(name, policy: policy)
        states.append(state)
        return state
    }
}
