import BinderyHTTP
import BinderyRuntime
import Crypto
import Foundation
import HTTPTypes

/// The `Idempotency-Key` request header (IETF httpapi draft): a client's id for one logical write,
/// sent again unchanged with each retry of it.
enum IdempotencyKey {
    /// The longest key taken, in characters.
    static let maxLength = 255

    /// The key in `header`: 1 to ``maxLength`` visible ASCII characters, bare or as a structured
    /// field string (`"…"`, as the draft writes it); a 400 problem otherwise. A string
    /// percent-encoded whole (`%22abc%22`, as Swift's OpenAPI runtime sends `"abc"`) is the same
    /// key as `"abc"`: a structured field string starts with `"`, never with `%`.
    static func parse(_ header: String) throws(Problem) -> String {
        var key = Substring(header)
        if key.count >= 6, key.prefix(3).uppercased() == "%22", key.suffix(3).uppercased() == "%22",
            let decoded = header.removingPercentEncoding
        {
            key = Substring(decoded)
        }
        if key.count >= 2, key.hasPrefix("\""), key.hasSuffix("\"") { key = key.dropFirst().dropLast() }
        guard !key.isEmpty, key.unicodeScalars.count <= maxLength,
            key.unicodeScalars.allSatisfy({ (0x21...0x7E).contains($0.value) && $0 != "\"" && $0 != "\\" })
        else {
            throw Problem(
                status: .badRequest, title: "Invalid Idempotency-Key",
                detail: "Idempotency-Key is 1 to \(maxLength) visible ASCII characters (no quotes or backslashes), e.g. a UUID."
            )
        }
        return String(key)
    }

    /// A digest of what makes a request the same request: its method, path and body. The members
    /// named in `leavingOut` (sensitive inputs: a password) are left out of a JSON object body: a
    /// hash of a password typed one character at a time, kept in the store, could be guessed back
    /// character by character. A retry with the same key and another password then counts as the
    /// same request.
    static func fingerprint(of request: Request, leavingOut sensitive: [String] = []) -> Data {
        var hasher = SHA256()
        hasher.update(data: Data("\(request.method.rawValue) \(request.rawPath)\n".utf8))
        if !sensitive.isEmpty, case .object(var members)? = try? JSONValue(parsing: Array(request.body)) {
            for name in sensitive { members[name] = nil }
            hasher.update(data: JSONWriter.bytes(of: .object(members)))
        } else {
            hasher.update(data: request.body)
        }
        return Data(hasher.finalize())
    }
}

extension HTTPField.Name {
    /// `Idempotency-Key`: the client's id of one logical write.
    static let idempotencyKey = HTTPField.Name("Idempotency-Key")!
    /// `Idempotent-Replayed: true` on an answer given again to a retry.
    static let idempotentReplayed = HTTPField.Name("Idempotent-Replayed")!
}
