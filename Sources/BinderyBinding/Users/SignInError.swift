import BinderyHTTP
import BinderyRuntime

/// Why a sign-in did not happen. Whatever the reason, the session is as it was.
enum SignInError: Error, Sendable {
    /// Too many failed attempts for the account or from the client: wait `retryAfter` seconds.
    case throttled(retryAfter: Int)
    /// The credentials could not be checked (the app's verifier threw: its upstream failed): 502.
    case unavailable(ExecutionFailure)
    /// The session is signed in as another user: sign out first.
    case signedInAsAnother
    /// The session ended or moved meanwhile, or the store could not record the sign-in.
    case sessionUnavailable

    /// The problem a client sees.
    var problem: Problem {
        switch self {
        case .throttled(let retryAfter): Problem(ViewModelError.tooManySignInAttempts(retryAfter: retryAfter))
        case .unavailable(let failure):
            Problem(status: .badGateway, title: "Sign-in unavailable", detail: failure.message)
        case .signedInAsAnother: Problem(status: .conflict, title: "Signed in as someone else", detail: Self.signOutFirst)
        case .sessionUnavailable: Problem(ViewModelError.sessionClosed)
        }
    }

    /// What the log line says of it (`auth.sign_in`).
    var logValue: String {
        switch self {
        case .throttled: "throttled"
        case .unavailable: "unavailable"
        case .signedInAsAnother: "signed_in_as_another"
        case .sessionUnavailable: "session_unavailable"
        }
    }

    /// The failure a view model's sign-in command shows.
    var executionFailure: ExecutionFailure {
        switch self {
        case .throttled(let retryAfter):
            ExecutionFailure(message: "Too many failed sign-ins: try again in \(retryAfter) s.", code: 429, origin: .rule)
        case .unavailable(let failure): failure
        case .signedInAsAnother: ExecutionFailure(message: Self.signOutFirst, code: 409, origin: .rule)
        case .sessionUnavailable:
            ExecutionFailure(message: "The session moved while signing in: nothing changed. Try again.", code: 503, origin: .internal)
        }
    }

    private static let signOutFirst = "This session is signed in as another user: sign out first."
}
