import BinderyHTTP
import BinderyRuntime
import Foundation

/// Decodes request bodies into JSON values, refusing malformed input with a clear 400.
enum JSONBody {
    /// The body as JSON; nil for an empty body.
    static func decode(_ request: Request) throws(Problem) -> JSONValue? {
        guard !request.body.isEmpty else { return nil }
        do {
            return try JSONDecoder().decode(JSONValue.self, from: Data(request.body))
        } catch {
            throw Problem(status: .badRequest, title: "Malformed JSON", detail: "The request body is not valid JSON.")
        }
    }
}
