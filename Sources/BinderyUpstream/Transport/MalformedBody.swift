import Foundation

/// The ways an injected malformed answer is broken; each fails the network layer's decoding.
enum MalformedBody: CaseIterable, Equatable, Sendable {
    /// The body cut in half, as a dropped connection leaves it.
    case truncated
    /// A JSON object without `data`, as seed 000 checks for.
    case missingData
    /// An HTML error page from a proxy instead of JSON.
    case htmlErrorPage

    /// The broken version of `body`.
    func apply(to body: Data) -> Data {
        switch self {
        case .truncated:
            return body.prefix(body.count / 2)
        case .missingData:
            return Data(#"{"status": 1, "msg": "服务繁忙,请稍后再试"}"#.utf8)
        case .htmlErrorPage:
            return Data("<html><body><h1>502 Bad Gateway</h1></body></html>".utf8)
        }
    }
}
