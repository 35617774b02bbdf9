import BinderyRuntime

/// An independent, strict RFC 8259 reader used as the oracle for Bindery's JSON checks: it says
/// whether bytes are one JSON text, names the first member name repeated in one object (in
/// document order), and builds the value the product promises for it, numbers by
/// ``ReferenceNumber``'s rule.
struct ReferenceJSON {
    /// What the reader found.
    enum Verdict: Equatable {
        /// Not a JSON text.
        case invalid
        /// A JSON text; the first repeated member name, if any.
        case valid(duplicate: String?)
        /// Nested deeper than the reader follows (parsers' depth limits differ).
        case tooDeep
    }

    /// The verdict and, for a valid text without a repeated name, its value: nil when a number in
    /// it is beyond `Double`'s range (the server refuses such a body).
    struct Reading {
        let verdict: Verdict
        let value: JSONValue?
    }

    private struct Refusal: Error {}
    private struct TooDeep: Error {}

    private static let maxDepth = 64
    private let bytes: [UInt8]
    private var index = 0
    private var duplicate: String?
    private var outOfRange = false

    /// The verdict on `bytes` and the value read.
    static func read(_ bytes: [UInt8]) -> Reading {
        var reader = ReferenceJSON(bytes: bytes)
        // RFC 8259 §8.1: a parser may ignore a UTF-8 byte order mark; Foundation does.
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { reader.index = 3 }
        do {
            reader.skipSpace()
            let value = try reader.value(depth: 0)
            reader.skipSpace()
            guard reader.index == bytes.count else { return Reading(verdict: .invalid, value: nil) }
            let usable = reader.duplicate == nil && !reader.outOfRange
            return Reading(verdict: .valid(duplicate: reader.duplicate), value: usable ? .some(value) : .none)
        } catch is TooDeep {
            return Reading(verdict: .tooDeep, value: nil)
        } catch {
            return Reading(verdict: .invalid, value: nil)
        }
    }

    private init(bytes: [UInt8]) {
        self.bytes = bytes
    }

    private var current: UInt8? { index < bytes.count ? bytes[index] : nil }

    private mutating func skipSpace() {
        while let byte = current, byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D { index += 1 }
    }

    private mutating func take(_ byte: UInt8) throws {
        guard current == byte else { throw Refusal() }
        index += 1
    }

    private mutating func value(depth: Int) throws -> JSONValue {
        guard depth < Self.maxDepth else { throw TooDeep() }
        switch current {
        case UInt8(ascii: "{"): return try object(depth: depth)
        case UInt8(ascii: "["): return try array(depth: depth)
        case UInt8(ascii: "\""): return .string(try string())
        case UInt8(ascii: "t"): try literal("true"); return .bool(true)
        case UInt8(ascii: "f"): try literal("false"); return .bool(false)
        case UInt8(ascii: "n"): try literal("null"); return .null
        default: return try number()
        }
    }

    private mutating func object(depth: Int) throws -> JSONValue {
        try take(UInt8(ascii: "{"))
        skipSpace()
        if current == UInt8(ascii: "}") { index += 1; return .object([:]) }
        var members: [String: JSONValue] = [:]
        while true {
            skipSpace()
            let name = try string()
            if members[name] != nil, duplicate == nil { duplicate = name }
            skipSpace()
            try take(UInt8(ascii: ":"))
            skipSpace()
            let member = try value(depth: depth + 1)
            if members[name] == nil { members[name] = member }
            skipSpace()
            if current == UInt8(ascii: ",") { index += 1; continue }
            try take(UInt8(ascii: "}"))
            return .object(members)
        }
    }

    private mutating func array(depth: Int) throws -> JSONValue {
        try take(UInt8(ascii: "["))
        skipSpace()
        if current == UInt8(ascii: "]") { index += 1; return .array([]) }
        var elements: [JSONValue] = []
        while true {
            skipSpace()
            elements.append(try value(depth: depth + 1))
            skipSpace()
            if current == UInt8(ascii: ",") { index += 1; continue }
            try take(UInt8(ascii: "]"))
            return .array(elements)
        }
    }

    private mutating func literal(_ word: String) throws {
        for byte in word.utf8 { try take(byte) }
    }

    /// A number token; its value by ``ReferenceNumber``'s rule (`null` stands in for one beyond
    /// `Double`'s range, which makes the whole text unusable).
    private mutating func number() throws -> JSONValue {
        let start = index
        if current == UInt8(ascii: "-") { index += 1 }
        if current == UInt8(ascii: "0") {
            index += 1
        } else {
            guard let byte = current, (0x31...0x39).contains(byte) else { throw Refusal() }
            skipDigits()
        }
        if current == UInt8(ascii: ".") {
            index += 1
            try digits()
        }
        if current == UInt8(ascii: "e") || current == UInt8(ascii: "E") {
            index += 1
            if current == UInt8(ascii: "+") || current == UInt8(ascii: "-") { index += 1 }
            try digits()
        }
        guard let number = ReferenceNumber.value(of: Array(bytes[start..<index])) else {
            outOfRange = true
            return .null
        }
        return number
    }

    private mutating func digits() throws {
        guard let byte = current, (0x30...0x39).contains(byte) else { throw Refusal() }
        skipDigits()
    }

    private mutating func skipDigits() {
        while let byte = current, (0x30...0x39).contains(byte) { index += 1 }
    }

    /// A string token, decoded. An unpaired surrogate escape (`"\\ud800"`) is refused: RFC 8259
    /// §8.2 leaves its meaning open, no Swift `String` can hold it, and Foundation refuses it.
    private mutating func string() throws -> String {
        try take(UInt8(ascii: "\""))
        var scalars = String.UnicodeScalarView()
        var run: [UInt8] = []
        func flush() throws {
            guard let text = String(validating: run, as: UTF8.self) else { throw Refusal() }
            scalars.append(contentsOf: text.unicodeScalars)
            run.removeAll()
        }
        while true {
            guard let byte = current else { throw Refusal() }
            index += 1
            switch byte {
            case UInt8(ascii: "\""):
                try flush()
                return String(scalars)
            case UInt8(ascii: "\\"):
                try flush()
                scalars.append(try escape())
            case 0x00..<0x20:
                throw Refusal()
            default:
                run.append(byte)
            }
        }
    }

    private mutating func escape() throws -> Unicode.Scalar {
        guard let byte = current else { throw Refusal() }
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
                guard (0xDC00..<0xE000).contains(low) else { throw Refusal() }
                return Unicode.Scalar(0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00))!
            }
            guard let scalar = Unicode.Scalar(unit) else { throw Refusal() }
            return scalar
        default:
            throw Refusal()
        }
    }

    private mutating func hexUnit() throws -> UInt32 {
        guard index + 4 <= bytes.count,
            let unit = UInt32(String(decoding: bytes[index..<index + 4], as: UTF8.self), radix: 16),
            bytes[index..<index + 4].allSatisfy({ $0 != UInt8(ascii: "+") && $0 != UInt8(ascii: "-") })
        else { throw Refusal() }
        index += 4
        return unit
    }
}
