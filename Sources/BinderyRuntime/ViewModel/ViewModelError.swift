/// Why an operation on a view model was refused. Every case leaves the view model unchanged.
public enum ViewModelError: Error, Sendable, Equatable {
    /// No view model lives at this path.
    case notFound(path: String)
    /// The view model's stored state cannot be read by this build: written by a newer
    /// declaration (another node runs newer code), or one a missing migration would lose. It is
    /// kept as it is, never written over.
    case storedStateUnreadable(path: String, error: PersistedStateError)
    /// A write was not a JSON object.
    case patchNotAnObject
    /// A write named an input the view model does not have.
    case unknownInput(name: String)
    /// A write gave an input a value of the wrong type or out of range.
    case invalidInput(name: String, reason: String)
    /// A conditional write named a version that is no longer current, and what changed since is
    /// not known (older than the version history reaches).
    case versionMismatch(current: Int)
    /// A conditional write named an older version, and the inputs it writes (`fields`, by name)
    /// changed since; a write of inputs that did not change is merged instead.
    case fieldsChanged(current: Int, fields: [String])
    /// A text edit named an input that is not a collaborative text.
    case notCollaborative(name: String)
    /// A text edit was made on a revision older than the edits the server keeps (`oldest` is
    /// the oldest base it transforms from); the client reloads the text.
    case textRevisionTooOld(name: String, oldest: Int)
    /// A text edit was malformed or does not apply to the revision it names.
    case invalidTextEdit(name: String, reason: String)
    /// The view model has no command of this name.
    case unknownCommand(name: String)
    /// The command's body was not what the command takes.
    case invalidArgument(command: String, reason: String)
    /// The command is disabled right now (`enabled` is false).
    case commandDisabled(name: String)
    /// The command is already executing and its policy is `serial`.
    case commandExecuting(name: String)
    /// The command's queue already holds `limit` waiting executions.
    case commandQueueFull(name: String, limit: Int)
    /// A cancel named a command with no running execution.
    case commandNotRunning(name: String)
    /// The change could not be committed to the store; nothing changed.
    case storeUnavailable
    /// The session's graph was closed (the server is stopping, or the session left memory)
    /// while the request was under way; nothing changed, and a retry finds the session again.
    case sessionClosed
    /// Another node committed a newer version first, again and again; nothing changed.
    case versionConflict
    /// The client created too many sessions too fast; it may create one after `retryAfter` seconds.
    case tooManySessions(retryAfter: Int)
    /// What was asked needs a signed-in session (an ``Access`` rule), and this one is anonymous.
    case signInRequired
    /// The session's user may not do what was asked (an ``Access`` rule); `reason` says what.
    case forbidden(reason: String)
    /// Too many sign-in attempts failed for this account or from this client; the next may come
    /// after `retryAfter` seconds.
    case tooManySignInAttempts(retryAfter: Int)
}
