import Foundation
import Testing

@testable import BinderyRuntime

@Suite("JSONWriter: snapshots written as Foundation's JSONEncoder writes them")
struct JSONWriterTests {
    private static func foundation(_ value: JSONValue) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(value), as: UTF8.self)
    }

    private static func written(_ value: JSONValue) -> String {
        String(decoding: JSONWriter.bytes(of: value), as: UTF8.self)
    }

    @Test(
        "Byte for byte what JSONEncoder writes",
        arguments: [
            JSONValue.null, true, false, 0, -7, .int(Int.max), .int(Int.min),
            1.5, 37.8, 0.1, -0.0, 3.0, 1e20, 1e-7, .double(.leastNonzeroMagnitude), 1.2345678901234568e+17, .double(Double.greatestFiniteMagnitude),
            "", "plain", "手机号:186, 密码:", "quote \" backslash \\ slash / tab \t newline \n", "\u{1}\u{8}\u{c}\r\u{1f}\u{7f}",
            "emoji 👍🏽 and e\u{301}", "\u{2028}\u{2029}",
            [], [1, "two", nil, [3.5]], [:],
            ["b": 1, "B": 2, "a": 3, "é": 4, "z": 5, "a1": 6, "a10": 7, "a2": 8, "": 9],
            ["outer": ["inner": ["deep": [true, ["x": "y"]]]], "list": [[:], []]],
        ])
    func matchesFoundation(_ value: JSONValue) throws {
        #expect(Self.written(value) == (try Self.foundation(value)))
    }

    @Test("A non-finite double, which JSON cannot carry, is written as null")
    func nonFinite() {
        #expect(Self.written(.double(.nan)) == "null")
        #expect(Self.written(["a": .double(.infinity)]) == #"{"a":null}"#)
    }

    @Test("What it writes reads back as the same value")
    func roundTrip() throws {
        let value: JSONValue = ["phone": "186", "valid": false, "count": 3, "ratio": 0.25, "items": [["id": "s1"], nil]]
        #expect(try JSONValue(parsing: JSONWriter.bytes(of: value)) == value)
    }

    @Test("A large snapshot keeps no more than a little spare capacity")
    func compactResult() {
        let value = JSONValue.array((0..<500).map { .string("item \($0) of a long list") })
        let bytes = JSONWriter.bytes(of: value, capacity: 16)
        #expect(bytes.capacity <= bytes.count + bytes.count / 8 + 64)
    }
}
