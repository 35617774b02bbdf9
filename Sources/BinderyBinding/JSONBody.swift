import BinderyHTTP
import BinderyRuntime
import Foundation

/// Decodes request bodies into JSON values, refusing malformed input with a clear 400.
enum JSONBody {
    /// The body as JSON; nil for an empty body. A member name repeated in one object is a 400.
    static func decode(_ request: Request) throws(Problem) -> JSONValue? {
        guard !request.body.isEmpty else { return nil }
        let value: JSONValue
        do {
            value = try JSONDecoder().decode(JSONValue.self, from: Data(request.body))
        } catch {
            throw Problem(status: .badRequest, title: "Malformed JSON", detail: "The request body is not valid JSON.")
        }
        try refuseDuplicateMembers(request.body)
        return value
    }

    /// Throws a 400 problem when a member name appears twice in one object of valid JSON `body`.
    static func refuseDuplicateMembers(_ body: [UInt8]) throws(Problem) {
        guard let name = DuplicateMembers.first(in: body) else { return }
        throw Problem(
            status: .badRequest, title: "Duplicate member",
            detail: "The member '\(name.prefix(100))' appears twice in one object of the request body."
        )
    }
}
