/// Reads untrusted bytes as one strict RFC 8259 JSON text into a ``JSONValue``, in one pass.
///
/// Written for request bodies, where Foundation's `JSONDecoder` cost the PATCH path a tenth of its
/// CPU (decoding through `Codable` into `JSONValue`), and needed two more scans to refuse what it
/// lets through. It agrees with `JSONDecoder` on every text both accept (fuzzed for equality in
/// `Tests/Fuzz`), numbers beyond 2^53 aside (below), and is stricter where Bindery wants it:
///
/// - a member name repeated in one object is refused (named in the error), where Foundation keeps
///   one of the values silently — which one differs between parsers;
/// - a trailing comma is refused (Foundation accepts it);
/// - the text must be UTF-8 (Foundation also guesses UTF-16 and UTF-32); a leading UTF-8 byte
///   order mark is skipped (RFC 8259 §8.1 allows that);
/// - an unpaired surrogate escape, a raw control character in a string, invalid UTF-8, a number
///   beyond `Double`'s range, and nesting deeper than ``maximumDepth`` are refused.
///
/// Numbers: one whose exact value is an integer that fits `Int` is that ``JSONValue/int(_:)``
/// (`1`, `1.0`, `1e2`, `9007199254740993`); any other is the nearest `Double` (ties to even, as
/// JavaScript's `JSON.parse` reads it), kept as an int when that double is an integer that fits
/// (`-66666666666666660.1` is `-66666666666666664`, `1e-400` is `0`), else as
/// ``JSONValue/double(_:)``. Foundation differs beyond 2^53: it drops the fraction of
/// `-66666666666666660.1` and keeps `-66666666666666660`, which is neither the value nor the
/// nearest double (docs/DECISIONS.md, "JSON numbers").
struct JSONReader {
    /// How deep arrays and objects may nest (Foundation's limit too).
    static let maximumDepth = 512

    private let bytes: UnsafeBufferPointer<UInt8>
    private var index = 0

    /// Reads `bytes` as one JSON text.
    static func value(of bytes: [UInt8]) throws(JSONValue.ParsingError) -> JSONValue {
        try bytes.withUnsafeBufferPointer { (buffer) throws(JSONValue.ParsingError) -> JSONValue in
            var reader = JSONReader(bytes: buffer)
            if buffer.starts(with: [0xEF, 0xBB, 0xBF]) { reader.index = 3 }
            reader.skipSpace()
            let value = try reader.value(depth: 0)
            reader.skipSpace()
            guard reader.index == buffer.count else { throw .malformed }
            return value
        }
    }

    private init(bytes: UnsafeBufferPointer<UInt8>) {
        self.bytes = bytes
    }

    private var current: UInt8? { index < bytes.count ? bytes[index] : nil }

    private mutating func skipSpace() {
        while index < bytes.count {
            switch bytes[index] {
            case 0x20, 0x09, 0x0A, 0x0D: index += 1
            default: return
            }
        }
    }

    private mutating func take(_ byte: UInt8) throws(JSONValue.ParsingError) {
        guard current == byte else { throw .malformed }
        index += 1
    }

    private mutating func value(depth: Int) throws(JSONValue.ParsingError) -> JSONValue {
        switch current {
        case UInt8(ascii: "{"): return try object(depth: depth + 1)
        case UInt8(ascii: "["): return try array(depth: depth + 1)
        case UInt8(ascii: "\""): return .string(try string())
        case UInt8(ascii: "t"): try literal("true"); return .bool(true)
        case UInt8(ascii: "f"): try literal("false"); return .bool(false)
        case UInt8(ascii: "n"): try literal("null"); return .null
        default: return try number()
        }
    }

    private mutating func object(depth: Int) throws(JSONValue.ParsingError) -> JSONValue {
        guard depth <= Self.maximumDepth else { throw .malformed }
        index += 1
        var members: [String: JSONValue] = [:]
        skipSpace()
        if current == UInt8(ascii: "}") { index += 1; return .object(members) }
        while true {
            skipSpace()
            guard current == UInt8(ascii: "\"") else { throw .malformed }
            let name = try string()
            skipSpace()
            try take(UInt8(ascii: ":"))
            skipSpace()
            let member = try value(depth: depth)
            guard members.updateValue(member, forKey: name) == nil else { throw .duplicateMember(name) }
            skipSpace()
            if current == UInt8(ascii: ",") { index += 1; continue }
            try take(UInt8(ascii: "}"))
            return .object(members)
        }
    }

    private mutating func array(depth: Int) throws(JSONValue.ParsingError) -> JSONValue {
        guard depth <= Self.maximumDepth else { throw .malformed }
        index += 1
        var elements: [JSONValue] = []
        skipSpace()
        if current == UInt8(ascii: "]") { index += 1; return .array(elements) }
        while true {
            skipSpace()
            elements.append(try value(depth: depth))
            skipSpace()
            if current == UInt8(ascii: ",") { index += 1; continue }
            try take(UInt8(ascii: "]"))
            return .array(elements)
        }
    }

    private mutating func literal(_ word: StaticString) throws(JSONValue.ParsingError) {
        let expected = UnsafeBufferPointer(start: word.utf8Start, count: word.utf8CodeUnitCount)
        guard index + expected.count <= bytes.count,
            UnsafeBufferPointer(rebasing: bytes[index..<index + expected.count]).elementsEqual(expected)
        else { throw .malformed }
        index += expected.count
    }

    /// A number token: checked against the grammar, then converted by the rule above.
    private mutating func number() throws(JSONValue.ParsingError) -> JSONValue {
        let start = index
        if current == UInt8(ascii: "-") { index += 1 }
        let integerStart = index
        if current == UInt8(ascii: "0") {
            index += 1
        } else {
            guard let byte = current, (0x31...0x39).contains(byte) else { throw .malformed }
            skipDigits()
        }
        var mantissa = Array(bytes[integerStart..<index])
        var exponent = 0
        if current == UInt8(ascii: ".") {
            index += 1
            let fractionStart = index
            try digits()
            mantissa += bytes[fractionStart..<index]
            exponent -= index - fractionStart
        }
        if current == UInt8(ascii: "e") || current == UInt8(ascii: "E") {
            index += 1
            let negative = current == UInt8(ascii: "-")
            if current == UInt8(ascii: "+") || negative { index += 1 }
            let exponentStart = index
            try digits()
            // Beyond ±100,000 the value is 0 or infinite either way; only the sign matters then.
            let written = bytes[exponentStart..<index].reduce(0) { min($0 * 10 + Int($1 - 0x30), 100_000) }
            exponent += negative ? -written : written
        }
        let negative = bytes[start] == UInt8(ascii: "-")
        if let exact = Self.exactInteger(digits: mantissa, exponent: exponent, negative: negative) { return .int(exact) }
        let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
        guard let number = Double(text), number.isFinite else { throw .malformed }
        if let exact = Int(exactly: number) { return .int(exact) }
        return .double(number)
    }

    /// The number `digits` × 10^`exponent` when it is an integer that fits `Int` exactly
    /// (`1.0`, `1.50e1`, `123456780123456789.0`), so that no digit is lost through `Double`.
    private static func exactInteger(digits: [UInt8], exponent: Int, negative: Bool) -> Int? {
        var significant = digits.drop { $0 == 0x30 }
        var exponent = exponent
        while significant.last == 0x30 {
            significant.removeLast()
            exponent += 1
        }
        guard !significant.isEmpty else { return 0 }
        guard exponent >= 0, significant.count + exponent <= 19 else { return nil }
        var magnitude: UInt64 = 0
        for digit in significant { magnitude = magnitude * 10 + UInt64(digit - 0x30) }
        for _ in 0..<exponent { magnitude *= 10 }
        return negative
            ? (magnitude <= UInt64(Int.max) + 1 ? Int(truncatingIfNeeded: 0 &- magnitude) : nil)
            : (magnitude <= UInt64(Int.max) ? Int(magnitude) : nil)
    }

    private mutating func digits() throws(JSONValue.ParsingError) {
        guard let byte = current, (0x30...0x39).contains(byte) else { throw .malformed }
        skipDigits()
    }

    private mutating func skipDigits() {
        while index < bytes.count, (0x30...0x39).contains(bytes[index]) { index += 1 }
    }

    /// A string token, decoded; the opening quote is the current byte.
    private mutating func string() throws(JSONValue.ParsingError) -> String {
        index += 1
        let start = index
        // The common case: no escape, so the bytes between the quotes are the string.
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                let text = String(validating: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
                index += 1
                guard let text else { throw .malformed }
                return text
            }
            if byte == UInt8(ascii: "\\") || byte < 0x20 { break }
            index += 1
        }
        var decoded = Array(UnsafeBufferPointer(rebasing: bytes[start..<index]))
        while let byte = current {
            index += 1
            switch byte {
            case UInt8(ascii: "\""):
                guard let text = String(validating: decoded, as: UTF8.self) else { throw .malformed }
                return text
            case UInt8(ascii: "\\"):
                decoded.append(contentsOf: String(try escape()).utf8)
            case 0x00..<0x20:
                throw .malformed
            default:
                decoded.append(byte)
            }
        }
        throw .malformed
    }

    /// The character an escape sequence stands for; the backslash is already read.
    private mutating func escape() throws(JSONValue.ParsingError) -> Unicode.Scalar {
        guard let byte = current else { throw .malformed }
        index += 1
        switch byte {
        case UInt8(ascii: "\""): return "\""
        case UInt8(ascii: "\\"): return "\\"
        case UInt8(ascii: "/"): return "/"
        case UInt8(ascii: "b"): return "\u{8}"
        case UInt8(ascii: "f"): return "\u{C}"
        case UInt8(ascii: "n"): return "\n"
        case UInt8(ascii: "r"): return "\r"
        case UInt8(ascii: "t"): return "\t"
        case UInt8(ascii: "u"):
            let unit = try hexUnit()
            if (0xD800..<0xDC00).contains(unit), current == UInt8(ascii: "\\"),
                index + 1 < bytes.count, bytes[index + 1] == UInt8(ascii: "u")
            {
                index += 2
                let low = try hexUnit()
                guard (0xDC00..<0xE000).contains(low) else { throw .malformed }
                return Unicode.Scalar(0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00))!
            }
            guard let scalar = Unicode.Scalar(unit) else { throw .malformed }
            return scalar
        default:
            throw .malformed
        }
    }

    /// Four hexadecimal digits, as a UTF-16 code unit.
    private mutating func hexUnit() throws(JSONValue.ParsingError) -> UInt32 {
        guard index + 4 <= bytes.count else { throw .malformed }
        var unit: UInt32 = 0
        for byte in bytes[index..<index + 4] {
            let digit: UInt8
            switch byte {
            case 0x30...0x39: digit = byte - 0x30
            case 0x41...0x46: digit = byte - 0x41 + 10
            case 0x61...0x66: digit = byte - 0x61 + 10
            default: throw .malformed
            }
            unit = unit << 4 | UInt32(digit)
        }
        index += 4
        return unit
    }
}
