/// The live ``Command`` states of one view model, made on first use from its declaration.
public final class CommandStates {
    private var states: [String: Command] = [:]

    /// Creates an empty set; states appear as commands are first rendered or executed.
    public init() {}

    /// Cancels every running and queued execution of every command.
    public func cancelAll() {
        states.values.forEach { _ = $0.cancelAll() }
    }

    /// The state of the command `name` under `policy`.
    func state(_ name: String, policy: CommandPolicy) -> Command {
        if let state = states[name] { return state }
        let state = Command(name, policy: policy)
        states[name] = state
        return state
    }
}
