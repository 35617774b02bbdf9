/// Names one view model of one session: the session's token hash and the view model's path.
package struct ViewModelKey: Hashable, Sendable, CustomStringConvertible {
    /// The session that owns the view model.
    package var session: SessionTokenHash
    /// The view model's path inside the session, such as `form` or `list/items/3`.
    package var path: String

    /// A key for the view model at `path` in `session`.
    package init(session: SessionTokenHash, path: String) {
        self.session = session
        self.path = path
    }

    /// `SESSION/PATH`, with the session shortened as in logs.
    package var description: String { "\(session)/\(path)" }
}
