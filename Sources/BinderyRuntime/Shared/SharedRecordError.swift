/// Why a change to a shared record was refused or failed. Every case leaves the collection as it
/// was.
public enum SharedRecordError: Error, Sendable, Hashable {
    /// No record has this id (never existed, or deleted).
    case notFound(id: String)
    /// The change was conditional on a version that is no longer the record's (`If-Match`).
    case stale(id: String, current: Int)
    /// Another node committed a change to the record first; the collection has reloaded it.
    case conflict(id: String)
    /// The store did not commit the change.
    case unavailable(reason: String)
    /// The collection's access rules need a signed-in user for this change.
    case signInRequired
    /// The collection's access rules do not let this user change the record `id`.
    case forbidden(id: String)
}

extension SharedRecordError: ExecutionFailureConvertible {
    /// How a command that failed on this error shows it: a missing record or a lost race is a
    /// rule failure (409), a refusal by the access rules one with code 401 or 403, an unavailable
    /// store an internal failure with code 503.
    public var executionFailure: ExecutionFailure {
        switch self {
        case .notFound(let id): ExecutionFailure(message: "\(id) no longer exists", origin: .rule)
        case .stale(let id, _), .conflict(let id):
            ExecutionFailure(message: "\(id) was changed elsewhere; try again", origin: .rule)
        case .unavailable:
            ExecutionFailure(message: "Storage unavailable: nothing changed. Try again in a moment.", code: 503, origin: .internal)
        case .signInRequired: ExecutionFailure(message: "Sign in first.", code: 401, origin: .rule)
        case .forbidden(let id): ExecutionFailure(message: "You may not change \(id).", code: 403, origin: .rule)
        }
    }

    /// The refusal of a write (PATCH) this error stands for, on the view model at `path`: 404,
    /// 412 with the record's version, 409, or 503.
    public func viewModelError(path: String) -> ViewModelError {
        switch self {
        case .notFound: .notFound(path: path)
        case .stale(_, let current): .versionMismatch(current: current)
        case .conflict: .versionConflict
        case .unavailable: .storeUnavailable
        case .signInRequired: .signInRequired
        case .forbidden(let id): .forbidden(reason: "you may not change \(id)")
        }
    }
}
