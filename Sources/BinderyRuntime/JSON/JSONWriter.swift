/// Writes a ``JSONValue`` as compact JSON text (RFC 8259), byte for byte what Foundation's
/// `JSONEncoder` writes with `.sortedKeys` and `.withoutEscapingSlashes` for the same value.
///
/// Written for the hot path: a snapshot is encoded on every new version, and `JSONEncoder` spends
/// most of its time in the generic `Codable` machinery (metadata lookups, dynamic casts, boxing
/// each member), not in writing bytes. This writer walks the enum directly into one buffer.
///
/// - Members are sorted by the UTF-8 bytes of their names (Foundation's order).
/// - Strings escape `"`, `\` and control characters (`\b \t \n \f \r`, else `\u00XX`); `/` and
///   every other character are written as UTF-8.
/// - A double is written as Swift's shortest round-trip text without a trailing `.0` (`3.0` is
///   `3`, `-0.0` is `-0`); a non-finite one (which JSON cannot carry, and `JSONEncoder` refuses) is
///   written as `null`.
package struct JSONWriter {
    private static let hexDigits = Array("0123456789abcdef".utf8)

    /// The text written so far.
    package private(set) var bytes: [UInt8] = []

    /// A writer with room for `capacity` bytes.
    package init(capacity: Int = 256) {
        bytes.reserveCapacity(capacity)
    }

    /// The JSON text of `value`.
    package static func bytes(of value: JSONValue, capacity: Int = 256) -> [UInt8] {
        var writer = JSONWriter(capacity: capacity)
        writer.write(value)
        return writer.compactBytes
    }

    /// The text written so far, without more than a little spare capacity: snapshots are kept
    /// for as long as their version is current, and growing the buffer may have doubled it.
    package var compactBytes: [UInt8] {
        guard bytes.capacity > bytes.count + bytes.count / 8 + 64 else { return bytes }
        return bytes.withUnsafeBufferPointer { Array($0) }
    }

    /// Appends an object of `members`, sorted by name, followed by `last`, whose name must sort
    /// after all of theirs (a snapshot's `version`): the sorted encoding of the whole object.
    package mutating func writeObject(_ members: [String: JSONValue], last: (name: String, value: JSONValue)) {
        write(.object(members))
        bytes.removeLast()
        if !members.isEmpty { bytes.append(UInt8(ascii: ",")) }
        writeString(last.name)
        bytes.append(UInt8(ascii: ":"))
        write(last.value)
        bytes.append(UInt8(ascii: "}"))
    }

    /// Appends the JSON text of `value`.
    package mutating func write(_ value: JSONValue) {
        switch value {
        case .null: append("null")
        case .bool(let flag): append(flag ? "true" : "false")
        case .int(let number): append(String(number))
        case .double(let number): writeDouble(number)
        case .string(let text): writeString(text)
        case .array(let elements):
            bytes.append(UInt8(ascii: "["))
            for (offset, element) in elements.enumerated() {
                if offset > 0 { bytes.append(UInt8(ascii: ",")) }
                write(element)
            }
            bytes.append(UInt8(ascii: "]"))
        case .object(let members):
            bytes.append(UInt8(ascii: "{"))
            let names = members.keys.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
            for (offset, name) in names.enumerated() {
                if offset > 0 { bytes.append(UInt8(ascii: ",")) }
                writeString(name)
                bytes.append(UInt8(ascii: ":"))
                write(members[name]!)
            }
            bytes.append(UInt8(ascii: "}"))
        }
    }

    private mutating func append(_ text: String) {
        bytes.append(contentsOf: text.utf8)
    }

    private mutating func writeDouble(_ number: Double) {
        guard number.isFinite else { return append("null") }
        var text = number.description
        if text.hasSuffix(".0") { text.removeLast(2) }
        append(text)
    }

    /// Writes a quoted string: runs of plain bytes copied at once, the rest escaped.
    private mutating func writeString(_ text: String) {
        bytes.append(UInt8(ascii: "\""))
        var text = text
        text.withUTF8 { utf8 in
            var runStart = 0
            for (index, byte) in utf8.enumerated() where byte < 0x20 || byte == 0x22 || byte == 0x5C {
                bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart..<index]))
                writeEscape(byte)
                runStart = index + 1
            }
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart...]))
        }
        bytes.append(UInt8(ascii: "\""))
    }

    private mutating func writeEscape(_ byte: UInt8) {
        bytes.append(UInt8(ascii: "\\"))
        switch byte {
        case 0x22: bytes.append(UInt8(ascii: "\""))
        case 0x5C: bytes.append(UInt8(ascii: "\\"))
        case 0x08: bytes.append(UInt8(ascii: "b"))
        case 0x09: bytes.append(UInt8(ascii: "t"))
        case 0x0A: bytes.append(UInt8(ascii: "n"))
        case 0x0C: bytes.append(UInt8(ascii: "f"))
        case 0x0D: bytes.append(UInt8(ascii: "r"))
        default:
            let hex = Self.hexDigits
            bytes.append(contentsOf: [UInt8(ascii: "u"), 0x30, 0x30, hex[Int(byte >> 4)], hex[Int(byte & 0x0F)]])
        }
    }
}
