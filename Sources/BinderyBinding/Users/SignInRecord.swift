import Synchronization

/// The token a request's own sign-in gave its session: set by the sign-in a view model's command
/// runs for that request (its task, and the command's work, carry the record), read when the
/// request is answered. Only that answer carries the new token: one of another request of the same
/// session, answered meanwhile, does not (a planted token's holder must never learn the new one).
final class SignInRecord: Sendable {
    private let given = Mutex<String?>(nil)

    /// The record of the request this task answers, if any.
    @TaskLocal static var current: SignInRecord?

    /// The new token, once this request's sign-in replaced the session's.
    var token: String? { given.withLock { $0 } }

    /// Records the session's new token.
    func record(_ token: String) {
        given.withLock { $0 = token }
    }
}
