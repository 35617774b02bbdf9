/// Someone using the app, as the others see them: a session's presence name and colour.
///
/// The server derives both from the session (no account, nothing to type), and sets
/// ``current`` while it handles that session's requests, so a view model can say who did what —
/// for instance who deleted a shared record:
///
/// ```swift
/// try await notes.delete(id: id, by: Collaborator.current?.name)
/// ```
public struct Collaborator: Sendable, Hashable, Codable {
    /// A short id, the same for every request of the session, never its token.
    public var id: String
    /// A friendly name, e.g. "Teal Otter".
    public var name: String
    /// A CSS colour for the name, e.g. "#1a7f8e".
    public var colour: String

    /// A collaborator.
    public init(id: String, name: String, colour: String) {
        self.id = id
        self.name = name
        self.colour = colour
    }

    /// The collaborator whose request is being handled on this task, if any.
    @TaskLocal public static var current: Collaborator?
}
