/// Swift spellings of the names a declaration uses: identifiers made safe, type names, string
/// literals, for generated client code.
package enum SwiftNames {
    /// The words Swift reserves (declarations, statements, expressions, types), back-quoted when
    /// a declaration's name is one of them.
    static let keywords: Set<String> = [
        "associatedtype", "class", "deinit", "enum", "extension", "fileprivate", "func", "import", "init", "inout",
        "internal", "let", "open", "operator", "private", "precedencegroup", "protocol", "public", "rethrows",
        "static", "struct", "subscript", "typealias", "var", "break", "case", "catch", "continue", "default",
        "defer", "do", "else", "fallthrough", "for", "guard", "if", "in", "repeat", "return", "throw", "switch",
        "where", "while", "Any", "as", "await", "false", "is", "nil", "self", "Self", "super", "throws", "true",
        "try",
    ]

    /// `name` as a Swift identifier: characters other than letters, digits and `_` become `_`, a
    /// leading digit gets a `_` in front, `_` alone (the wildcard) is `__`, and an empty name is
    /// `unnamed`; nothing is back-quoted.
    package static func bare(_ name: String) -> String {
        let cleaned = String(name.map { $0.isASCII && ($0.isLetter || $0.isNumber) || $0 == "_" ? $0 : "_" })
        guard let first = cleaned.first else { return "unnamed" }
        return first.isNumber || cleaned == "_" ? "_" + cleaned : cleaned
    }

    /// `name` as a Swift identifier usable anywhere: ``bare(_:)``, back-quoted when it is a keyword.
    package static func identifier(_ name: String) -> String {
        let bare = bare(name)
        return keywords.contains(bare) ? "`\(bare)`" : bare
    }

    /// `name` with its first letter upper-cased, as a type name or after a prefix (`canClear`).
    package static func capitalized(_ name: String) -> String {
        let bare = bare(name)
        return bare.prefix(1).uppercased() + bare.dropFirst()
    }

    /// `"name"`: a Swift string literal of `text`, with quotes, backslashes and controls escaped.
    package static func literal(_ text: String) -> String {
        var escaped = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": escaped += "\\\""
            case "\\": escaped += "\\\\"
            case "\n": escaped += "\\n"
            case "\r": escaped += "\\r"
            case "\t": escaped += "\\t"
            case _ where scalar.value < 0x20: escaped += "\\u{\(String(scalar.value, radix: 16))}"
            default: escaped.unicodeScalars.append(scalar)
            }
        }
        return "\"\(escaped)\""
    }

    /// `text` on one line (newlines as spaces), for a `///` comment.
    package static func oneLine(_ text: String) -> String {
        text.split(whereSeparator: \.isNewline).map { $0.trimmingSpaces }.joined(separator: " ")
    }
}

extension Substring {
    /// The text without leading or trailing spaces.
    fileprivate var trimmingSpaces: Substring {
        drop { $0 == " " }.reversed().drop { $0 == " " }.reversed().reduce(into: Substring()) { $0.append($1) }
    }
}
