/// A command's state in the snapshot: whether it may run now and whether it runs.
public struct CommandStatus: Sendable, Hashable {
    /// Whether the command may be executed now (a View enables its button on it).
    public let enabled: Bool
    /// Whether an execution is running (deferred commands).
    public let executing: Bool
    /// The failure of the last execution (`{"message", "code"}`), or nil.
    public let error: JSONValue?
    /// The declared policy: `serial`, `concurrent`, `cancelPrevious` or `queue`.
    public let policy: String

    init?(_ value: JSONValue?) {
        guard let members = value?.objectValue else { return nil }
        enabled = members["enabled"] == .bool(true)
        executing = members["executing"] == .bool(true)
        // Not `nil` in a closure of JSONValue: that literal is JSON's null.
        error = members["error"] == .null ? JSONValue?.none : members["error"]
        policy = members["policy"]?.stringValue ?? "serial"
    }
}
