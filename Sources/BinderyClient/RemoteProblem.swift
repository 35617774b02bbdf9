/// What the server said when it refused a write or a command: its RFC 9457 problem, as a value a
/// View can show (`Text(problem.detail ?? problem.title)` next to the field it names).
public struct RemoteProblem: Error, Sendable, Hashable, CustomStringConvertible {
    /// The HTTP status (422 for an invalid input, 409 for a disabled command, …).
    public let status: Int
    /// The problem's short title ("Invalid input", "Command disabled", …).
    public let title: String
    /// The sentence that says what was wrong, when the server gave one.
    public let detail: String?
    /// The input the problem is about, when it is about one (`field`).
    public let field: String?
    /// The inputs another client changed meanwhile, for a 412 "Version mismatch" (`fields`).
    public let fields: [String]
    /// The command the problem is about, when it is about one (`command`).
    public let command: String?
    /// The whole problem document as the server sent it (other members included).
    public let document: JSONValue

    /// A problem from the server's answer: `document` is its RFC 9457 body, if it had one.
    public init(status: Int, document: JSONValue?) {
        let members = document?.objectValue ?? [:]
        self.status = status
        self.title = members["title"]?.stringValue ?? "HTTP \(status)"
        self.detail = members["detail"]?.stringValue
        self.field = members["field"]?.stringValue
        self.fields = members["fields"]?.arrayValue?.compactMap(\.stringValue) ?? []
        self.command = members["command"]?.stringValue
        self.document = document ?? .object(["status": .int(status), "title": .string("HTTP \(status)")])
    }

    /// Whether a command ended because it was cancelled (409 "Command cancelled"): by design, not a failure.
    public var isCancellation: Bool { status == 409 && title == "Command cancelled" }

    /// "422 Invalid input: 'phone': longer than 64 characters."
    public var description: String {
        "\(status) \(title)" + (detail.map { ": \($0)" } ?? "")
    }
}
