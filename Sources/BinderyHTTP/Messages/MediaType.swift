/// Content-Type checks used by the server's request rules.
package enum MediaType {
    /// Whether a Content-Type value names JSON: `application/json`, any `+json` suffix
    /// (`application/merge-patch+json`, `application/problem+json`), parameters allowed. The type
    /// and subtype must be RFC 9110 tokens: `application//json` or `a b/json` name nothing.
    ///
    /// One pass over the bytes, no copies: it runs on every request with a body.
    package static func isJSON(_ contentType: String) -> Bool {
        var utf8 = contentType.utf8[...]
        if let semicolon = utf8.firstIndex(of: UInt8(ascii: ";")) { utf8 = utf8[..<semicolon] }
        while let first = utf8.first, isSpace(first) { utf8 = utf8.dropFirst() }
        while let last = utf8.last, isSpace(last) { utf8 = utf8.dropLast() }
        guard let slash = utf8.firstIndex(of: UInt8(ascii: "/")) else { return false }
        let type = utf8[..<slash]
        let subtype = utf8[utf8.index(after: slash)...]
        guard isToken(type), isToken(subtype) else { return false }
        let json = "json".utf8
        guard subtype.count >= json.count, subtype.suffix(json.count).elementsEqual(json, by: sameLetter) else {
            return false
        }
        // "json" itself, or a "+json" suffix after a non-empty name.
        if subtype.count == json.count { return true }
        return subtype.count > json.count + 1 && subtype.dropLast(json.count).last == UInt8(ascii: "+")
    }

    private static func isSpace(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t")
    }

    /// Whether `byte` is `letter` in either case (`letter` lower case).
    private static func sameLetter(_ byte: UInt8, _ letter: UInt8) -> Bool {
        byte | 0x20 == letter
    }

    /// Whether the bytes are an RFC 9110 token: one or more `tchar`.
    private static func isToken(_ bytes: Substring.UTF8View) -> Bool {
        !bytes.isEmpty
            && bytes.allSatisfy { byte in
                switch byte {
                case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"):
                    true
                default:
                    "!#$%&'*+-.^_`|~".utf8.contains(byte)
                }
            }
    }
}
