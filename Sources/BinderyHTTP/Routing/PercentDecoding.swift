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
    ///
    /// Split by Unicode scalars, not `Character`s: a "/" followed by a combining mark is one
    /// Character, and would not separate segments (found by `bindery-fuzz`).
    package static func segments(ofRawPath rawPath: String) -> [String]? {
        // Nothing to decode: split the bytes ("/" is one byte in UTF-8 and never part of another
        // scalar's encoding, so this is the same split as by scalars).
        if !rawPath.utf8.contains(UInt8(ascii: "%")) {
            if let segments = rawPath.utf8.withContiguousStorageIfAvailable(splitUndecoded) { return segments }
            var bytes = rawPath.utf8[...]
            if bytes.first == UInt8(ascii: "/") { bytes = bytes.dropFirst() }
            if bytes.isEmpty { return [] }
            return bytes.split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: false).map { String(Substring($0)) }
        }
        var scalars = Substring(rawPath).unicodeScalars
        if scalars.first == "/" { scalars = scalars.dropFirst() }
        if scalars.isEmpty { return [] }
        var result: [String] = []
        for part in scalars.split(separator: "/", omittingEmptySubsequences: false) {
            guard let decoded = decode(Substring(part)) else { return nil }
            result.append(decoded)
        }
        return result
    }

    /// The same split over a path's bytes in one pass, with no intermediate array of slices.
    private static func splitUndecoded(_ path: UnsafeBufferPointer<UInt8>) -> [String] {
        var start = path.first == UInt8(ascii: "/") ? 1 : 0
        guard start < path.count else { return [] }
        var segments: [String] = []
        for index in start..<path.count where path[index] == UInt8(ascii: "/") {
            segments.append(String(decoding: UnsafeBufferPointer(rebasing: path[start..<index]), as: UTF8.self))
            start = index + 1
        }
        segments.append(String(decoding: UnsafeBufferPointer(rebasing: path[start...]), as: UTF8.self))
        return segments
    }
}
