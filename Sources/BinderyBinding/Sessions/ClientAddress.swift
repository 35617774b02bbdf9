import BinderyHTTP
import HTTPTypes

/// The address a request comes from, as the per-address session limits count it.
enum ClientAddress {
    /// The peer's address; behind a trusted proxy (nginx), the right-most `X-Forwarded-For`
    /// entry, the one that proxy added (entries to its left are whatever the client sent).
    static func of(_ request: Request, trustingForwardedFor trusted: Bool) -> String? {
        if trusted, let forwarded = request.headers[values: .xForwardedFor].last,
            let last = forwarded.split(separator: ",").last
        {
            let address = last.filter { $0 != " " }
            if !address.isEmpty { return String(address) }
        }
        return request.remoteAddress
    }
}

extension HTTPField.Name {
    /// `X-Forwarded-For`: the client addresses proxies saw.
    static let xForwardedFor = HTTPField.Name("X-Forwarded-For")!
}
