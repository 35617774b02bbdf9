/// The error a command's work ended with, as shown to clients in the command's `error` output.
public struct ExecutionFailure: Error, Sendable, Hashable {
    /// Where the failure came from, which decides how a client should read it.
    public enum Origin: String, Sendable, Hashable {
        /// An upstream provider failed or answered garbage.
        case upstream
        /// The view model's own rules refused the work.
        case rule
        /// Anything else; the message carries no internals.
        case `internal`
        /// The execution was cancelled (by a client, a newer execution or the session's end).
        case cancelled
    }

    /// A message fit to show a user (an alert's text, e.g. "Bad Network").
    public var message: String
    /// A code that goes with the message, when the origin has one (e.g. 500 from the upstream).
    public var code: Int?
    /// Where the failure came from.
    public var origin: Origin

    /// Creates a failure.
    public init(message: String, code: Int? = nil, origin: Origin) {
        self.message = message
        self.code = code
        self.origin = origin
    }

    /// The failure as a JSON output: `{"message": ..., "code": ...}`.
    public var json: JSONValue {
        var members: [String: JSONValue] = ["message": .string(message), "origin": .string(origin.rawValue)]
        members["code"] = code.map(JSONValue.int) ?? .null
        return .object(members)
    }
}

extension ExecutionFailure {
    /// The failure of a cancelled execution; it is never kept as a command's `error`.
    public static let cancelled = ExecutionFailure(message: "Cancelled", origin: .cancelled)

    /// The failure of an execution that was running when the server stopped.
    public static let interrupted = ExecutionFailure(
        message: "Interrupted: the server restarted while this was running. Try again.", origin: .internal
    )

    /// The failure of a sign-in whose credentials were wrong (whether or not the account exists):
    /// shown as `message`, answered 422.
    public static func signInRefused(_ message: String) -> ExecutionFailure {
        ExecutionFailure(message: message, code: 422, origin: .rule)
    }

    /// The shape of ``json``: `{"message", "code", "origin"}`.
    public static let schema = Schema.named(
        "ExecutionFailure",
        .object([
            "message": .text,
            "code": .nullable(.int),
            "origin": .enumeration(["upstream", "rule", "internal", "cancelled"]),
        ])
    )
}

/// An error that knows how to present itself as an ``ExecutionFailure``.
public protocol ExecutionFailureConvertible: Error {
    /// The failure shown to clients.
    var executionFailure: ExecutionFailure { get }
}

extension ExecutionFailure {
    /// Converts any error thrown by command work; unknown errors leak no internals.
    public init(_ error: any Error) {
        if let failure = error as? ExecutionFailure {
            self = failure
        } else if let convertible = error as? any ExecutionFailureConvertible {
            self = convertible.executionFailure
        } else if error is CancellationError {
            self = .cancelled
        } else {
            self.init(message: "The command failed", origin: .internal)
        }
    }
}
