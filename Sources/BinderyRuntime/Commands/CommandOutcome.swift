/// How a command execution requested through a ``ViewModelGraph`` turned out.
package enum CommandOutcome: Sendable, Equatable {
    /// The work finished and succeeded; the snapshot shows the state after it.
    case completed(EncodedSnapshot, CommandResult)
    /// The work finished and failed; the snapshot shows the failure as the command's `error`.
    case failed(EncodedSnapshot, ExecutionFailure)
    /// The work is still running after the caller's wait; the snapshot shows `executing: true`.
    case running(EncodedSnapshot)
}
