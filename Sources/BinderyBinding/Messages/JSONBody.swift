import BinderyHTTP
import BinderyRuntime

/// Decodes request bodies into JSON values, refusing malformed input with a clear 400.
enum JSONBody {
    /// The body as JSON; nil for an empty body. A member name repeated in one object is a 400.
    static func decode(_ request: Request) throws(Problem) -> JSONValue? {
        guard !request.body.isEmpty else { return nil }
        do {
            return try JSONValue(parsing: request.body)
        } catch {
            switch error {
            case .malformed:
                throw Problem(status: .badRequest, title: "Malformed JSON", detail: "The request body is not valid JSON.")
            case .duplicateMember(let name):
                throw duplicateMember(name)
            }
        }
    }

    /// Throws a 400 problem when `body` is JSON in which a member name appears twice in one
    /// object, or is not UTF-8 (Foundation's decoders would read UTF-16 past the duplicate check);
    /// leaves any other malformed body to the caller's own decoder.
    static func refuseDuplicateMembers(_ body: [UInt8]) throws(Problem) {
        do {
            _ = try JSONValue(parsing: body)
        } catch {
            switch error {
            case .malformed:
                guard body.contains(0) else { return }
                throw Problem(status: .badRequest, title: "Malformed JSON", detail: "The request body is not UTF-8 JSON.")
            case .duplicateMember(let name):
                throw duplicateMember(name)
            }
        }
    }

    private static func duplicateMember(_ name: String) -> Problem {
        Problem(
            status: .badRequest, title: "Duplicate member",
            detail: "The member '\(name.prefix(100))' appears twice in one object of the request body."
        )
    }
}
