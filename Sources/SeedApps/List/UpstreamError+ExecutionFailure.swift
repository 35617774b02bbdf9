import Bindery
import BinderyUpstream

/// An upstream failure shows as the seed's alert text and code, e.g. `{"message": "Bad Network",
/// "code": 500, "origin": "upstream"}`, when it ends a command or an activation.
extension UpstreamError: @retroactive ExecutionFailureConvertible {
    /// The failure shown to clients: the upstream's message and code.
    public var executionFailure: ExecutionFailure {
        ExecutionFailure(message: message, code: code, origin: .upstream)
    }
}
