import BinderyHTTP
import BinderyRuntime
import HTTPTypes

extension Problem {
    /// The HTTP problem for a refused view-model operation (RFC 9457).
    ///
    /// Every case names what was wrong; none of them changed the view model.
    init(_ error: ViewModelError) {
        switch error {
        case .notFound(let path):
            self.init(status: .notFound, title: "No such view model", detail: "There is no view model at '\(path)'.")
        case .storedStateUnreadable(let path, let error):
            // Newer state is another node's (running newer code): try again, perhaps there.
            // Unreadable state waits for a deploy with its migration: nothing was changed.
            if case .newer = error {
                self.init(
                    status: .serviceUnavailable, title: "Stored by a newer version",
                    detail: "'\(path)' was \(error); nothing was changed. Try again in a moment.",
                    headers: [.retryAfter: "2"]
                )
            } else {
                self.init(
                    status: .serviceUnavailable, title: "Stored state unreadable",
                    detail: "'\(path)' was \(error). It is kept as it is and nothing was changed.",
                    headers: [.retryAfter: "30"]
                )
            }
        case .patchNotAnObject:
            self.init(
                status: .unprocessableContent, title: "Invalid patch",
                detail: "A patch must be a JSON object whose members are inputs."
            )
        case .unknownInput(let name):
            self.init(
                status: .unprocessableContent, title: "Unknown input",
                detail: "'\(name)' is not an input of this view model.", extensions: ["field": name]
            )
        case .invalidInput(let name, let reason):
            self.init(
                status: .unprocessableContent, title: "Invalid input",
                detail: "'\(name)': \(reason).", extensions: ["field": name]
            )
        case .versionMismatch(let current):
            self.init(
                status: .preconditionFailed, title: "Version mismatch",
                detail: "If-Match does not name the current version \(current) (its ETag is \"\(current)\")."
            )
        case .fieldsChanged(let current, let fields):
            self.init(
                status: .preconditionFailed, title: "Version mismatch",
                detail: "Changed since the version If-Match names: \(fields.joined(separator: ", ")) (the current version is \(current))."
            )
            lists = ["fields": fields]
        case .notCollaborative(let name):
            self.init(
                status: .notFound, title: "No collaborative text",
                detail: "'\(name)' is not a collaborative text input of this view model.", extensions: ["field": name]
            )
        case .textRevisionTooOld(let name, let oldest):
            self.init(
                status: .conflict, title: "Revision too old",
                detail: "'\(name)': the edit's base is older than the edits kept (from revision \(oldest)); reload the text and edit again.",
                extensions: ["field": name]
            )
        case .invalidTextEdit(let name, let reason):
            self.init(status: .unprocessableContent, title: "Invalid edit", detail: "'\(name)': \(reason).", extensions: ["field": name])
        case .unknownCommand(let name):
            self.init(status: .notFound, title: "No such command", detail: "This view model has no command '\(name)'.")
        case .invalidArgument(let command, let reason):
            self.init(
                status: .unprocessableContent, title: "Invalid command argument",
                detail: "'\(command)': \(reason).", extensions: ["command": command]
            )
        case .commandDisabled(let name):
            self.init(
                status: .conflict, title: "Command disabled",
                detail: "'\(name)' is not enabled in the current state.", extensions: ["command": name]
            )
        case .commandExecuting(let name):
            self.init(
                status: .conflict, title: "Command already executing",
                detail: "'\(name)' is already executing; commands run one at a time.", extensions: ["command": name]
            )
        case .commandQueueFull(let name, let limit):
            self.init(
                status: .tooManyRequests, title: "Command queue full",
                detail: "'\(name)' already has \(limit) executions waiting; try again when one has finished.",
                extensions: ["command": name]
            )
        case .tooManySessions(let retryAfter):
            self.init(
                status: .tooManyRequests, title: "Too many new sessions",
                detail:
                    "This address created too many sessions in a short time. Reuse your session (its cookie or bearer token), or try again later.",
                headers: [.retryAfter: "\(retryAfter)"]
            )
        case .storeUnavailable:
            self.init(
                status: .serviceUnavailable, title: "Storage unavailable",
                detail: "The change could not be saved, so nothing changed. Try again in a moment.",
                headers: [.retryAfter: "1"]
            )
        case .sessionClosed:
            self.init(
                status: .serviceUnavailable, title: "Session unavailable",
                detail: "The server is restarting or moved this session; nothing changed. Try again.",
                headers: [.retryAfter: "1"]
            )
        case .versionConflict:
            self.init(
                status: .conflict, title: "Write conflict",
                detail: "Other writes to this view model kept winning; nothing changed. Try again."
            )
        case .commandNotRunning(let name):
            self.init(
                status: .conflict, title: "Command not running",
                detail: "'\(name)' has no running execution to cancel.", extensions: ["command": name]
            )
        case .signInRequired:
            self = .signInRequired
        case .forbidden(let reason):
            self.init(status: .forbidden, title: "Not allowed", detail: "You are signed in, but \(reason).")
        case .tooManySignInAttempts(let retryAfter):
            self.init(
                status: .tooManyRequests, title: "Too many sign-in attempts",
                detail: "Too many sign-ins failed for this account or from this address; try again in \(retryAfter) s.",
                headers: [.retryAfter: "\(retryAfter)"]
            )
        }
    }

    /// 401: what was asked needs a signed-in session. `WWW-Authenticate` names the session token
    /// (bearer, or the cookie a browser holds); `POST /api/session/sign-in` signs in.
    static var signInRequired: Problem {
        Problem(
            status: .unauthorized, title: "Sign-in required",
            detail: "Sign in first (POST /api/session/sign-in); nothing changed.",
            headers: [.wwwAuthenticate: "Bearer"]
        )
    }

    /// The HTTP problem for a command whose work failed: 502 when the upstream failed.
    init(_ failure: ExecutionFailure, command: String) {
        var extensions = ["command": command]
        if let code = failure.code { extensions["code"] = String(code) }
        switch failure.origin {
        case .upstream:
            self.init(status: .badGateway, title: "Upstream failure", detail: failure.message, extensions: extensions)
        case .rule:
            // A rule failure with a client-error code says which: a refused sign-in (422), an
            // access rule (401, 403), too many attempts (429), a conflict (409, the default).
            let status = failure.code.flatMap { (400..<500).contains($0) ? HTTPResponse.Status(code: $0) : nil } ?? .conflict
            self.init(status: status, title: "Command failed", detail: failure.message, extensions: extensions)
            if status == .unauthorized { headers[.wwwAuthenticate] = "Bearer" }
        case .internal where failure.code == 503:
            // The work's change could not be stored (a shared record's commit): nothing changed.
            self.init(
                status: .serviceUnavailable, title: "Storage unavailable", detail: failure.message,
                extensions: extensions, headers: [.retryAfter: "1"]
            )
        case .internal:
            self.init(status: .internalServerError, title: "Command failed", detail: failure.message, extensions: extensions)
        case .cancelled:
            self.init(
                status: .conflict, title: "Command cancelled",
                detail: "The execution was cancelled before it finished; nothing changed.", extensions: extensions
            )
        }
    }
}
