import Foundation
import HTTPTypes

/// An RFC 9457 problem: the error a client sees, rendered as `application/problem+json`.
public struct Problem: Error, Sendable, Equatable {
    /// The HTTP status of the problem.
    public var status: HTTPResponse.Status
    /// A short, human-readable summary of the problem type.
    public var title: String
    /// A human-readable explanation of this occurrence.
    public var detail: String?
    /// A URI reference identifying the problem type; "about:blank" by default.
    public var type: String
    /// Extra members, such as "field" naming the offending input.
    public var extensions: [String: String]
    /// Extra members whose values are lists of strings, such as "fields" naming changed inputs.
    public var lists: [String: [String]] = [:]
    /// Extra response header fields (for example `Allow` on a 405).
    public var headers: HTTPFields

    /// Creates a problem; `title` defaults to the status's reason phrase.
    public init(
        status: HTTPResponse.Status,
        title: String? = nil,
        detail: String? = nil,
        type: String = "about:blank",
        extensions: [String: String] = [:],
        headers: HTTPFields = [:]
    ) {
        self.status = status
        self.title = title ?? status.reasonPhrase
        self.detail = detail
        self.type = type
        self.extensions = extensions
        self.headers = headers
    }

    /// The problem as an `application/problem+json` response (keys sorted).
    public var response: Response {
        var fields = headers
        fields[.contentType] = "application/problem+json"
        return Response(status: status, headers: fields, body: .bytes(encoded()))
    }

    /// The problem's JSON document (keys sorted), as its response carries it.
    public func encoded() -> [UInt8] {
        var members = extensions
        members["type"] = type
        members["title"] = title
        if let detail {
            members["detail"] = detail
        }
        let object = ProblemDocument(members: members, lists: lists, status: status.code)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return (try? Array(encoder.encode(object))) ?? Array(#"{"status":500}"#.utf8)
    }
}

/// An error that knows which problem the client should see. Anything thrown that does not
/// conform becomes a 500 problem without internal details.
public protocol ProblemConvertible: Error {
    /// The problem to show the client.
    var problem: Problem { get }
}

extension Problem: ProblemConvertible {
    /// A problem is its own problem.
    public var problem: Problem { self }
}

extension Problem {
    /// The problem for any thrown error: its own when `ProblemConvertible`, else a bare 500.
    package static func from(_ error: any Error) -> Problem {
        if let convertible = error as? any ProblemConvertible {
            return convertible.problem
        }
        return Problem(status: .internalServerError, detail: "The server could not complete the request.")
    }
}

/// The JSON shape of a problem: string members plus the numeric status.
private struct ProblemDocument: Encodable {
    var members: [String: String]
    var lists: [String: [String]]
    var status: Int

    struct Key: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Key.self)
        for (key, value) in members where key != "status" {
            try container.encode(value, forKey: Key(stringValue: key))
        }
        for (key, value) in lists where members[key] == nil && key != "status" {
            try container.encode(value, forKey: Key(stringValue: key))
        }
        try container.encode(status, forKey: Key(stringValue: "status"))
    }
}
