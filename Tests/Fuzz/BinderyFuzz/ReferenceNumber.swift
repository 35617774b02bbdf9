import BinderyRuntime

/// The product's rule for JSON numbers (docs/DECISIONS.md, "JSON numbers"), computed a second way
/// for the fuzz oracle: by moving the decimal point in the token's text, where the server's reader
/// counts digits and an exponent.
///
/// - A number whose exact decimal value is an integer in `Int`'s range is that integer.
/// - Any other is the nearest `Double` (ties to even: what `Double("…")`, JavaScript's
///   `JSON.parse` and RFC 8259 §6's interoperable readers give); when that double is an integer in
///   `Int`'s range it is that integer (`-66666666666666660.1` is `-66666666666666664`, `1e-400` is 0).
/// - A number whose nearest double is infinite has no value (the server refuses the body).
enum ReferenceNumber {
    /// The value of one number token that matched the grammar, or nil when it is out of range.
    static func value(of token: [UInt8]) -> JSONValue? {
        if let exact = exactInteger(token) { return .int(exact) }
        guard let number = Double(String(decoding: token, as: UTF8.self)), number.isFinite else { return nil }
        return Int(exactly: number).map(JSONValue.int) ?? .double(number)
    }

    /// The token's value when it is exactly an integer that `Int` holds.
    private static func exactInteger(_ token: [UInt8]) -> Int? {
        let text = String(decoding: token, as: UTF8.self)
        let negative = text.hasPrefix("-")
        let unsigned = negative ? text.dropFirst() : Substring(text)
        let (significand, exponentText) = splitExponent(unsigned)
        let parts = significand.split(separator: ".", omittingEmptySubsequences: false)
        let whole = String(parts[0])
        let fraction = parts.count > 1 ? String(parts[1]) : ""
        // The decimal point sits after `point` digits of `whole + fraction`.
        let digits = whole + fraction
        if digits.allSatisfy({ $0 == "0" }) { return 0 }
        guard let shift = exponent(exponentText) else { return nil }
        let point = whole.count + shift
        // Digits after the point must all be zero; the ones before it (padded with zeros) are the value.
        let integerPart: String
        if point <= 0 {
            return nil
        } else if point >= digits.count {
            guard point - digits.count <= 20 else { return nil }
            integerPart = digits + String(repeating: "0", count: point - digits.count)
        } else {
            guard digits.dropFirst(point).allSatisfy({ $0 == "0" }) else { return nil }
            integerPart = String(digits.prefix(point))
        }
        let trimmed = integerPart.drop { $0 == "0" }
        return Int((negative ? "-" : "") + (trimmed.isEmpty ? "0" : trimmed))
    }

    /// The significand and the exponent's text (empty when there is none).
    private static func splitExponent(_ text: Substring) -> (Substring, Substring) {
        guard let marker = text.firstIndex(where: { $0 == "e" || $0 == "E" }) else { return (text, "") }
        return (text[..<marker], text[text.index(after: marker)...])
    }

    /// The exponent, or nil when it is too large in either direction for a nonzero `Int`.
    private static func exponent(_ text: Substring) -> Int? {
        guard !text.isEmpty else { return 0 }
        let negative = text.hasPrefix("-")
        let digits = text.drop { $0 == "+" || $0 == "-" }.drop { $0 == "0" }
        guard digits.count <= 6, let magnitude = Int(digits.isEmpty ? "0" : digits) else { return nil }
        return negative ? -magnitude : magnitude
    }
}
