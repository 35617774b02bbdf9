/// Where the session state lives, as given to `--store` (or `BINDERY_STORE`).
public enum StoreLocation: Hashable, Sendable, CustomStringConvertible {
    /// An SQLite file (`sqlite:PATH`); a relative path is relative to the working directory.
    case sqlite(path: String)
    /// Nothing on disk (`memory`): state ends with the process.
    case memory
    /// A PostgreSQL server (`postgres://user[:password]@host[:port]/database`, or `postgresql://…`).
    case postgres(url: String)

    /// `sqlite:.bindery/bindery.sqlite`, relative to the working directory.
    public static let `default` = StoreLocation.sqlite(path: ".bindery/bindery.sqlite")

    /// Parses `sqlite:PATH`, `memory` or `postgres://…`.
    public init(parsing text: String) throws(StoreLocationError) {
        if text == "memory" {
            self = .memory
        } else if text.hasPrefix("sqlite:") {
            let path = String(text.dropFirst("sqlite:".count))
            guard !path.isEmpty else { throw StoreLocationError(text: text, reason: "sqlite: needs a file path") }
            self = .sqlite(path: path)
        } else if text.hasPrefix("postgres://") || text.hasPrefix("postgresql://") {
            self = .postgres(url: text)
        } else {
            throw StoreLocationError(text: text, reason: "expected sqlite:PATH, memory or postgres://…")
        }
    }

    /// The text that parses back to this location, except that a PostgreSQL password is hidden.
    public var description: String {
        switch self {
        case .sqlite(let path): "sqlite:\(path)"
        case .memory: "memory"
        case .postgres(let url): Self.hidingPassword(in: url)
        }
    }

    /// `postgres://user:secret@host/db` becomes `postgres://user:***@host/db`, for logs and errors.
    static func hidingPassword(in url: String) -> String {
        guard let scheme = url.range(of: "://"),
            let at = url[scheme.upperBound...].firstIndex(of: "@"),
            let colon = url[scheme.upperBound..<at].firstIndex(of: ":")
        else { return url }
        return url.replacingCharacters(in: url.index(after: colon)..<at, with: "***")
    }
}

/// A `--store` value that names no known store.
public struct StoreLocationError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The text as given.
    public var text: String
    /// What is wrong with it, in a few words.
    public var reason: String

    /// An error about `text`.
    public init(text: String, reason: String) {
        self.text = text
        self.reason = reason
    }

    /// One line naming the value and what was expected.
    public var description: String { "invalid store \"\(text)\": \(reason)" }
}
