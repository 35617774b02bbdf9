import BinderyRuntime
import Foundation

/// Request bodies: what `JSONValue(parsing:)` (the server's body decoder) accepts and refuses,
/// compared with the independent reader `ReferenceJSON`, and how accepted values round-trip.
enum JSONChecks {
    /// Checks `body`; returns the value when the server would accept it.
    static func check(_ body: [UInt8]) -> JSONValue? {
        let reference = ReferenceJSON.read(body)
        let verdict = reference.verdict
        do {
            let value = try JSONValue(parsing: body)
            // Accepted: a JSON text (deep ones are not judged) with no repeated member name, read
            // as the reference reads it, numbers included (the int/double case too).
            expect(
                verdict == .valid(duplicate: nil) || verdict == .tooDeep,
                "accepted a body the reference reads as \(verdict): \(excerpt(body))")
            if verdict != .tooDeep {
                expect(
                    reference.value == value,
                    "read \(excerpt(body)) as \(excerpt(value)), the reference as \(excerpt(reference.value as Any))")
            }
            checkAgreesWithFoundation(value, body)
            checkRoundTrip(value)
            return value
        } catch {
            switch error {
            case .duplicateMember(let name):
                // A valid text must really repeat that name. An invalid one may come back as a
                // duplicate too (refused either way): the reader reports the first problem it meets.
                if case .valid(let duplicate) = verdict {
                    expect(
                        duplicate == name,
                        "refused '\(name)' as a duplicate, the reference says \(verdict): \(excerpt(body))")
                }
            case .malformed:
                // Refused as malformed: the reference must not read a valid text, unless a number
                // in it is beyond Double's range (the reference has no value for it then).
                if verdict == .valid(duplicate: nil) {
                    expect(reference.value == nil, "refused valid JSON as malformed: \(excerpt(body))")
                }
            }
        }
        return nil
    }

    /// Foundation's `JSONDecoder` reads an accepted body as the same strings, structure and
    /// numbers, where Foundation is exact: below 2^53 in magnitude. Beyond that it keeps the
    /// integer part's digits of some texts (`-66666666666666660.1` is the int `…660`), where the
    /// product promises the nearest double (`…664`) and ``ReferenceNumber`` is the judge.
    private static func checkAgreesWithFoundation(_ value: JSONValue, _ body: [UInt8]) {
        let foundation = try? JSONDecoder().decode(JSONValue.self, from: Data(body))
        expect(
            foundation.map { sameJSON($0, value) } ?? false, "read \(excerpt(body)) as \(excerpt(value)), Foundation as \(excerpt(foundation as Any))"
        )
    }

    /// Equal values, with numbers equal when they are the same `Double`, or either is 2^53 or beyond.
    private static func sameJSON(_ left: JSONValue, _ right: JSONValue) -> Bool {
        switch (left, right) {
        case (.array(let first), .array(let second)):
            return first.count == second.count && zip(first, second).allSatisfy(sameJSON)
        case (.object(let first), .object(let second)):
            return first.count == second.count
                && first.allSatisfy { name, member in second[name].map { sameJSON(member, $0) } ?? false }
        default:
            if let first = left.doubleValue, let second = right.doubleValue {
                let exactLimit = 9_007_199_254_740_992.0
                return first == second || max(abs(first), abs(second)) >= exactLimit
            }
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
        expect(
            bytes == [UInt8](encoded),
            "wrote \(excerpt(value)) as \(excerpt(String(decoding: bytes, as: UTF8.self))), Foundation as \(excerpt(String(decoding: encoded, as: UTF8.self)))"
        )
        let again = try? JSONValue(parsing: bytes)
        expect(
            again == value, "re-encoded \(excerpt(value)) as \(excerpt(String(decoding: bytes, as: UTF8.self))), read back \(excerpt(again as Any))")
    }
}
