import Foundation

/// Percent-decoding of paths and query components, shared by the server and the router.
package enum PercentDecoding {
    /// The decoded text, or nil when an escape is malformed or the result is not UTF-8.
    package static func decode(_ text: some StringProtocol) -> String? {
        // A byte scan: `contains("%")` would go through Foundation's substring search.
        guard text.utf8.contains(UInt8(ascii: "%")) else { return String(text) }
        return String(text).removingPercentEncoding
    }

    /// The path's segments after the leading "/", each decoded on its own (so an encoded
    /// "%2F" stays inside its segment); nil when any segment is malformed.
    package static func segments(ofRawPath rawPath: String) -> [String]? {
        let trimmed = rawPath.hasPrefix("/") ? rawPath.dropFirst() : Substring(rawPath)
        if trimmed.isEmpty { return [] }
        var result: [String] = []
        for part in trimmed.split(separator: "/", omittingEmptySubsequences: false) {
            guard let decoded = decode(part) else { return nil }
            result.append(decoded)
        }
        return result
    }
}
