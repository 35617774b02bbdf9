/// What happens when a command is executed while an earlier execution still runs.
public enum CommandPolicy: Sendable, Hashable {
    /// A second execution is refused (409) while one runs; ReactiveSwift `Action`'s default.
    case serial
    /// Executions run side by side.
    case concurrent
    /// A new execution cancels the running ones; only the last one's result stays.
    case cancelPrevious
    /// Executions wait their turn in FIFO order; at most `limit` may wait, more are refused (429).
    case queue(limit: Int)

    /// The policy's name in snapshots and documents: `serial`, `concurrent`, `cancelPrevious`, `queue`.
    public var name: String {
        switch self {
        case .serial: "serial"
        case .concurrent: "concurrent"
        case .cancelPrevious: "cancelPrevious"
        case .queue: "queue"
        }
    }
}
