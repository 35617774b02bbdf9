/// Content-Type checks used by the server's request rules.
public enum MediaType {
    /// Whether a Content-Type value names JSON: `application/json`, any `+json` suffix
    /// (`application/merge-patch+json`, `application/problem+json`), parameters allowed. The type
    /// and subtype must be RFC 9110 tokens: `application//json` or `a b/json` name nothing.
    public static func isJSON(_ contentType: String) -> Bool {
        let essence = contentType.split(separator: ";", maxSplits: 1).first ?? ""
        let mediaType = essence.trimmingSpaces().lowercased()
        let parts = mediaType.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, parts.allSatisfy(\.isToken) else { return false }
        return parts[1] == "json" || (parts[1].hasSuffix("+json") && parts[1].count > 5)
    }
}

extension Substring {
    fileprivate func trimmingSpaces() -> Substring {
        var text = self
        while let first = text.first, first == " " || first == "\t" { text = text.dropFirst() }
        while let last = text.last, last == " " || last == "\t" { text = text.dropLast() }
        return text
    }

    /// Whether this is an RFC 9110 token: one or more `tchar`.
    fileprivate var isToken: Bool {
        !isEmpty && utf8.allSatisfy { byte in
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"):
                true
            default:
                "!#$%&'*+-.^_`|~".utf8.contains(byte)
            }
        }
    }
}
