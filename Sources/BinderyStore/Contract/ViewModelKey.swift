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

    /// The order of keys by session (byte-wise), then path: the order in which a transaction
    /// locks view-model rows, so that two transactions never wait for each other's rows.
    package func precedes(_ other: ViewModelKey) -> Bool {
        session == other.session ? path < other.path : session.precedes(other.session)
    }

    /// `SESSION/PATH`, with the session shortened as in logs.
    package var description: String { "\(session)/\(path)" }
}
