/// Names one view model of one session: the session's token hash and the view model's path.
public struct ViewModelKey: Hashable, Sendable, CustomStringConvertible {
    /// The session that owns the view model.
    public var session: SessionTokenHash
    /// The view model's path inside the session, such as `form` or `list/items/3`.
    public var path: String

    /// A key for the view model at `path` in `session`.
    public init(session: SessionTokenHash, path: String) {
        self.session = session
        self.path = path
    }

    /// `SESSION/PATH`, with the session shortened as in logs.
    public var description: String { "\(session)/\(path)" }
}
