import BinderyRuntime
import Foundation

/// Request bodies: what `JSONValue(parsing:)` (the server's body decoder) accepts and refuses,
/// compared with the independent reader `ReferenceJSON`, and how accepted values round-trip.
enum JSONChecks {
    /// Checks `body`; returns the value when the server would accept it.
    static func check(_ body: [UInt8]) -> JSONValue? {
        let verdict = ReferenceJSON.verdict(body)
        do {
            let value = try JSONValue(parsing: body)
            // Accepted: a JSON text (deep ones are not judged) with no repeated member name.
            expect(verdict == .valid(duplicate: nil) || verdict == .tooDeep,
                   "accepted a body the reference reads as \(verdict): \(excerpt(body))")
            checkAgreesWithFoundation(value, body)
            checkRoundTrip(value)
            return value
        } catch {
            switch error {
            case .duplicateMember(let name):
                // A valid text must really repeat that name. An invalid one may come back as a
                // duplicate too (refused either way): Foundation does not read the value of a name
                // it already holds, so `{"a":1,"a":2+}` decodes and the scan then finds "a".
                if case .valid(let duplicate) = verdict {
                    expect(duplicate == name,
                           "refused '\(name)' as a duplicate, the reference says \(verdict): \(excerpt(body))")
                }
            case .malformed:
                // Refused as malformed: the reference must not read a valid text, unless a number
                // in it is out of Double's range (Foundation refuses those).
                if case .valid = verdict {
                    expect(hasHugeNumber(body), "refused valid JSON as malformed: \(excerpt(body))")
                }
            }
        }
        return nil
    }

    /// Foundation's `JSONDecoder` reads an accepted body as the same value (Bindery's reader is
    /// only stricter: duplicates, trailing commas, other encodings).
    private static func checkAgreesWithFoundation(_ value: JSONValue, _ body: [UInt8]) {
        let foundation = try? JSONDecoder().decode(JSONValue.self, from: Data(body))
        expect(foundation.map { sameJSON($0, value) } ?? false, "read \(excerpt(body)) as \(excerpt(value)), Foundation as \(excerpt(foundation as Any))")
    }

    /// Equal values, with numbers equal when they are the same `Double`: beyond 2^53 Foundation
    /// keeps the digits of some texts (`123456780123456789.5` is the int `…789`) and Bindery reads
    /// the nearest double of the exact value, as RFC 8259 §6 expects of interoperable numbers.
    private static func sameJSON(_ left: JSONValue, _ right: JSONValue) -> Bool {
        switch (left, right) {
        case (.array(let first), .array(let second)):
            return first.count == second.count && zip(first, second).allSatisfy(sameJSON)
        case (.object(let first), .object(let second)):
            return first.count == second.count
                && first.allSatisfy { name, member in second[name].map { sameJSON(member, $0) } ?? false }
        default:
            if let first = left.doubleValue, let second = right.doubleValue { return first == second }
            return left == right
        }
    }

    /// Bindery's writer writes an accepted value byte for byte as Foundation's encoder does, and
    /// reading it back gives the same value.
    private static func checkRoundTrip(_ value: JSONValue) {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        guard let encoded = try? encoder.encode(value) else {
            expect(false, "an accepted value does not encode: \(excerpt(value))")
            return
        }
        let bytes = JSONWriter.bytes(of: value)
        expect(bytes == [UInt8](encoded),
               "wrote \(excerpt(value)) as \(excerpt(String(decoding: bytes, as: UTF8.self))), Foundation as \(excerpt(String(decoding: encoded, as: UTF8.self)))")
        let again = try? JSONValue(parsing: bytes)
        expect(again == value, "re-encoded \(excerpt(value)) as \(excerpt(String(decoding: bytes, as: UTF8.self))), read back \(excerpt(again as Any))")
    }

    /// Whether the text has a number literal that is not a finite Double (Foundation refuses those).
    private static func hasHugeNumber(_ body: [UInt8]) -> Bool {
        var token: [UInt8] = []
        var inString = false
        var escaped = false
        var found = false
        func finish() {
            if !token.isEmpty, let number = Double(String(decoding: token, as: UTF8.self)), !number.isFinite {
                found = true
            }
            token.removeAll()
        }
        for byte in body {
            if inString {
                if escaped { escaped = false } else if byte == UInt8(ascii: "\\") { escaped = true } else if byte == UInt8(ascii: "\"") { inString = false }
            } else if byte == UInt8(ascii: "\"") {
                finish()
                inString = true
            } else if (0x30...0x39).contains(byte) || [UInt8(ascii: "-"), UInt8(ascii: "+"), UInt8(ascii: "."), UInt8(ascii: "e"), UInt8(ascii: "E")].contains(byte) {
                token.append(byte)
            } else {
                finish()
            }
        }
        finish()
        return found
    }
}
