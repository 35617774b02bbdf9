/// An independent, strict RFC 8259 reader used as the oracle for Bindery's JSON checks: it
/// says whether bytes are one JSON text and names the first member name repeated in one object,
/// in document order. It builds no values; it only has to agree on the grammar and on names.
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

    private struct Refusal: Error {}
    private struct TooDeep: Error {}

    private static let maxDepth = 64
    private let bytes: [UInt8]
    private var index = 0
    private var duplicate: String?

    /// The verdict on `bytes`.
    static func verdict(_ bytes: [UInt8]) -> Verdict {
        var reader = ReferenceJSON(bytes: bytes)
        // RFC 8259 §8.1: a parser may ignore a UTF-8 byte order mark; Foundation does.
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { reader.index = 3 }
        do {
            reader.skipSpace()
            try reader.value(depth: 0)
            reader.skipSpace()
            guard reader.index == bytes.count else { return .invalid }
            return .valid(duplicate: reader.duplicate)
        } catch is TooDeep {
            return .tooDeep
        } catch {
            return .invalid
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

    private mutating func value(depth: Int) throws {
        guard depth < Self.maxDepth else { throw TooDeep() }
        switch current {
        case UInt8(ascii: "{"): try object(depth: depth)
        case UInt8(ascii: "["): try array(depth: depth)
        case UInt8(ascii: "\""): _ = try string()
        case UInt8(ascii: "t"): try literal("true")
        case UInt8(ascii: "f"): try literal("false")
        case UInt8(ascii: "n"): try literal("null")
        default: try number()
        }
    }

    private mutating func object(depth: Int) throws {
        try take(UInt8(ascii: "{"))
        skipSpace()
        if current == UInt8(ascii: "}") { index += 1; return }
        var names: Set<String> = []
        while true {
            skipSpace()
            let name = try string()
            if !names.insert(name).inserted, duplicate == nil { duplicate = name }
            skipSpace()
            try take(UInt8(ascii: ":"))
            skipSpace()
            try value(depth: depth + 1)
            skipSpace()
            if current == UInt8(ascii: ",") { index += 1; continue }
            try take(UInt8(ascii: "}"))
            return
        }
    }

    private mutating func array(depth: Int) throws {
        try take(UInt8(ascii: "["))
        skipSpace()
        if current == UInt8(ascii: "]") { index += 1; return }
        while true {
            skipSpace()
            try value(depth: depth + 1)
            skipSpace()
            if current == UInt8(ascii: ",") { index += 1; continue }
            try take(UInt8(ascii: "]"))
            return
        }
    }

    private mutating func literal(_ word: String) throws {
        for byte in word.utf8 { try take(byte) }
    }

    private mutating func number() throws {
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
