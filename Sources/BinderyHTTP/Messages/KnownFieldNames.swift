import HTTPTypes

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The request header names clients send most, in their usual spelling. A name sent spelled
/// exactly so is that field name as it is, without the copy, validation and lower-casing that
/// `HTTPField.Name(_:)` does for every field of every request; any other spelling takes that path.
enum KnownFieldNames {
    /// `Host` (HTTPTypes marks its own constant unavailable, for HTTP/2's `:authority`).
    static let host = HTTPField.Name("Host")!

    private static let table: [(spelling: StaticString, name: HTTPField.Name)] = [
        ("Host", host), ("Authorization", .authorization), ("User-Agent", .userAgent), ("Accept", .accept),
        ("Accept-Encoding", .acceptEncoding), ("Accept-Language", .acceptLanguage), ("Connection", .connection),
        ("Content-Type", .contentType), ("Content-Length", .contentLength), ("Cookie", .cookie),
        ("If-None-Match", .ifNoneMatch), ("If-Match", .ifMatch), ("Origin", .origin), ("Referer", .referer),
    ]

    /// The field name the NUL-terminated `key` spells exactly, if it is one of the table's.
    static func name(cString key: UnsafePointer<CChar>) -> HTTPField.Name? {
        let first = UInt8(bitPattern: key.pointee)
        for entry in table where entry.spelling.utf8Start.pointee == first {
            let count = entry.spelling.utf8CodeUnitCount
            let spelling = UnsafeRawPointer(entry.spelling.utf8Start).assumingMemoryBound(to: CChar.self)
            // `strncmp` stops at the key's NUL, so a shorter key is never read past its end.
            if strncmp(key, spelling, count) == 0, key[count] == 0 { return entry.name }
        }
        return nil
    }
}
