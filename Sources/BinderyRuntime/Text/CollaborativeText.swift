/// A text several users edit at once: one of a shared record's collaborative texts
/// (``SharedRecord/collaborativeTexts``), as ``SharedCollection/collaborativeText(id:key:)``
/// hands it to an input declared with ``InputDeclaration/collaborative(_:maxLength:text:rule:)``.
///
/// Its revision is the record's version: every session bound to it sees the same one. Clients
/// edit it with text operations that the server transforms against everything applied since
/// the revision they were made on (`POST /api/views/{path}/inputs/{name}/ops`), and receive the
/// edits others make on the event stream.
public struct CollaborativeText: Sendable {
    /// Names the text across view models and sessions: `<collection>/<record id>#<key>`.
    package let identity: String
    /// The text and its revision now; nil once its record (or the text) is gone.
    package let read: @Sendable () -> (text: String, revision: Int)?
    /// The edits after a revision up to another that this node holds in memory.
    package let recentEdits: @Sendable (_ after: Int, _ through: Int) -> TextEdits?
    /// The edits after a revision up to now, read from the store when memory does not reach.
    package let catchUp: @Sendable (_ after: Int) async -> TextEdits?
    /// Applies an edit, checking the text it makes with the given check (nil: accepted).
    package let apply: @Sendable (TextEditRequest, _ check: @escaping @Sendable (String) -> String?) async -> Result<TextEdits, TextEditError>

    /// The text now; empty once its record is gone.
    public var value: String { read()?.text ?? "" }
}

/// An edit a client sends: its id, the revision it was made on and its operation.
package struct TextEditRequest: Sendable, Hashable {
    /// The client's id for it: a repeated request with this id answers the first answer again.
    package var id: String
    /// The revision of the text the operation was made on.
    package var base: Int
    /// The operation.
    package var operation: TextOperation

    /// A request.
    package init(id: String, base: Int, operation: TextOperation) {
        self.id = id
        self.base = base
        self.operation = operation
    }
}

/// Why an edit of a collaborative text was not applied; nothing changed.
package enum TextEditError: Error, Sendable, Hashable {
    /// The record or the text is gone.
    case notFound
    /// The base is older than the edits the server keeps: reload the text.
    case tooOld(oldest: Int)
    /// The operation does not apply to the text at its base (offsets, deleted text, a base
    /// ahead of the text).
    case invalid(reason: String)
    /// The text it makes is refused by the input's schema or rule.
    case refused(reason: String)
    /// Other nodes kept winning the race to commit.
    case conflict
    /// The store did not commit it.
    case unavailable(reason: String)
    /// The collection's access rules need a signed-in user.
    case signInRequired
    /// The collection's access rules do not let this user change the record.
    case forbidden
}
