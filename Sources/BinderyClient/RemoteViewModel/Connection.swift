extension RemoteViewModel {
    /// The state of the event stream that keeps the snapshot current.
    public enum Connection: Sendable, Hashable {
        /// Not following (``RemoteViewModel/follow()`` is not running).
        case idle
        /// Opening the stream.
        case connecting
        /// Open: every new version arrives as it is made.
        case live
        /// Cut off; trying again (the `attempt`th time, after a back-off with jitter).
        case reconnecting(attempt: Int)
        /// Refused for good (an unknown session: 401; no such view model: 404).
        case failed(RemoteProblem)
    }
}
