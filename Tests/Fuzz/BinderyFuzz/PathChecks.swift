import BinderyHTTP
import Foundation
import HTTPTypes

/// Request paths: percent-decoding, and the router, whose decision must depend only on the
/// decoded segments, never on how the client chose to encode them.
enum PathChecks {
    /// Patterns shaped like Bindery's own routes.
    static let patterns = [
        "/", "/api/sessions", "/api/views/{rest...}", "/api/views", "/upstream/images/{name}",
        "/a/{x}/b/{y}", "/a/{x}", "/files/{name}/raw",
    ]

    /// A router whose every route answers at once with its pattern and captured parameters.
    static let router: Router = {
        var router = Router()
        for pattern in patterns {
            router.add(
                .get, pattern,
                immediate: { request in
                    let parameters = request.parameters.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }
                    let text = ([pattern] + parameters).joined(separator: "\u{1}")
                    return Response(status: .ok, body: .bytes(Array(text.utf8)))
                }, handler: { _ in Response(status: .internalServerError) })
        }
        return router
    }()

    /// Checks one raw path (as a client sent it, without the query).
    static func check(_ text: String) {
        let raw = text.hasPrefix("/") ? text : "/" + text
        let decoded = PercentDecoding.decode(raw)
        let segments = PercentDecoding.segments(ofRawPath: raw)
        expect(
            (decoded == nil) == (segments == nil),
            "\(excerpt(raw)): the whole path decodes to \(excerpt(decoded as Any)), its segments to \(excerpt(segments as Any))")
        guard let decoded, let segments else { return }
        // By bytes: a "F" followed by a combining mark is one Character, which a String search for
        // "%2F" does not find.
        let bytes = Array(raw.utf8)
        let encodedSlash = bytes.indices.dropLast(2).contains { index in
            bytes[index] == UInt8(ascii: "%") && bytes[index + 1] == UInt8(ascii: "2")
                && (bytes[index + 2] | 0x20) == UInt8(ascii: "f")
        }
        if !encodedSlash {
            // By bytes: "/" followed by a combining mark is one Character.
            let split = decoded.utf8.dropFirst().split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: false)
                .map { String(decoding: $0, as: UTF8.self) }
            expect(
                segments == (decoded == "/" ? [] : split),
                "\(excerpt(raw)): segments \(excerpt(segments)) are not the decoded path's \(excerpt(split))")
        }
        // The server refuses a path that decodes to a NUL before routing.
        guard !decoded.contains("\0") else { return }
        let answer = route(raw: raw, path: decoded)
        let canonical = "/" + segments.map(encode).joined(separator: "/")
        expect(
            answer == route(raw: canonical, path: decoded),
            "\(excerpt(raw)) and its canonical form \(excerpt(canonical)) are routed differently")
        let restPrefix = "/api/views/{rest...}\u{1}rest=".utf8
        if !encodedSlash, let answer, answer.utf8.starts(with: restPrefix) {
            let rest = String(decoding: answer.utf8.dropFirst(restPrefix.count), as: UTF8.self)
            expect("/api/views/" + rest == decoded, "\(excerpt(raw)): captured rest \(excerpt(rest)) is not the decoded path's")
        }
    }

    /// What the router answers for a GET of `raw`: the pattern and parameters, or the status.
    private static func route(raw: String, path: String) -> String? {
        let request = Request(method: .get, path: path, rawPath: raw)
        guard let response = router.respondImmediately(to: request) else { return nil }
        guard response.status == .ok, case .bytes(let bytes) = response.body else { return "\(response.status.code)" }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// A segment with every byte but the unreserved ones percent-encoded (`/` and `%` included).
    private static func encode(_ segment: String) -> String {
        var text = ""
        for byte in segment.utf8 {
            if (0x30...0x39).contains(byte) || (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte)
                || byte == UInt8(ascii: "-") || byte == UInt8(ascii: ".") || byte == UInt8(ascii: "_") || byte == UInt8(ascii: "~")
            {
                text.unicodeScalars.append(Unicode.Scalar(byte))
            } else {
                text += "%" + String(byte, radix: 16, uppercase: true).leftPadded(to: 2)
            }
        }
        return text
    }
}

extension String {
    fileprivate func leftPadded(to width: Int) -> String {
        String(repeating: "0", count: max(0, width - count)) + self
    }
}
