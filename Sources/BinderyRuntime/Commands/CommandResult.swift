/// What a command's successful execution answers besides the new state.
public struct CommandResult: Sendable, Equatable {
    /// A page URL the client should go to (Portal navigation), chosen by the view model.
    public var navigate: String?

    /// Creates a result.
    public init(navigate: String? = nil) {
        self.navigate = navigate
    }

    /// A result with nothing to say.
    public static let none = CommandResult()
}
