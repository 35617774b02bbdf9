@testable import BinderyRuntime
import Foundation
import Testing

@Suite("Request bodies as JSON: JSONValue(parsing:)")
struct JSONParsingTests {
    @Test("A member name repeated in one object is refused, escaped or not")
    func duplicates() {
        #expect(throws: JSONValue.ParsingError.duplicateMember("a")) { try JSONValue(parsing: Array(#"{"a":1,"a":2}"#.utf8)) }
        #expect(throws: JSONValue.ParsingError.duplicateMember("a")) { try JSONValue(parsing: Array(#"[{"\u0061":1,"a":2}]"#.utf8)) }
        #expect((try? JSONValue(parsing: Array(#"{"a":{"a":1},"b":[{"a":2}]}"#.utf8))) != nil)
    }

    // Found by bindery-fuzz: Foundation's decoder accepts a trailing comma.
    @Test("A trailing comma is malformed; a comma inside a string is not")
    func trailingCommas() {
        for text in [#"{"phone":"186",}"#, "[1,]", "[1 ,\n ]", #"{"a":[1,2,] }"#] {
            #expect(throws: JSONValue.ParsingError.malformed, "\(text)") { try JSONValue(parsing: Array(text.utf8)) }
        }
        #expect((try? JSONValue(parsing: Array(#"{"a":",}","b":"x\\","c":[1,2]}"#.utf8))) != nil)
        #expect((try? JSONValue(parsing: Array(#"{"a":",]"}"#.utf8))) == .object(["a": .string(",]")]))
    }

    // Found with the fuzz target's reference reader: Foundation also reads UTF-16 and UTF-32, and
    // the duplicate scan, which reads UTF-8 bytes, missed an escaped repeat in such a body.
    @Test("A body that is not UTF-8 is malformed, so no duplicate passes in UTF-16")
    func utf16IsRefused() throws {
        for encoding in [String.Encoding.utf16LittleEndian, .utf16BigEndian, .utf16, .utf32LittleEndian] {
            let body = try #require(#"{"\u0061":1,"a":2}"#.data(using: encoding))
            #expect(throws: JSONValue.ParsingError.malformed) { try JSONValue(parsing: Array(body)) }
        }
        #expect(throws: JSONValue.ParsingError.malformed) { try JSONValue(parsing: Array("{\"a\":\"\0\"}".utf8)) }
    }

    @Test("A UTF-8 byte order mark is ignored (RFC 8259 §8.1 allows it)")
    func byteOrderMark() throws {
        #expect(try JSONValue(parsing: [0xEF, 0xBB, 0xBF] + Array(#"{"a":1}"#.utf8)) == ["a": 1])
    }
}

@Suite("JSONReader: numbers, strings and nesting as Foundation reads them, stricter where it matters")
struct JSONReaderTests {
    private static func read(_ text: String) throws(JSONValue.ParsingError) -> JSONValue {
        try JSONValue(parsing: Array(text.utf8))
    }

    @Test("A number whose value is an integer that fits Int is an int, as in Foundation")
    func numbers() throws {
        #expect(try Self.read("1") == .int(1))
        #expect(try Self.read("1.0") == .int(1))
        #expect(try Self.read("1e2") == .int(100))
        #expect(try Self.read("-0.0") == .int(0))
        #expect(try Self.read("9223372036854775807") == .int(Int.max))
        #expect(try Self.read("9223372036854775808") == .double(9223372036854775808))
        #expect(try Self.read("123456780123456789.0") == .int(123_456_780_123_456_789))
        #expect(try Self.read("1.50e1") == .int(15))
        #expect(try Self.read("-9223372036854775808") == .int(Int.min))
        #expect(try Self.read("1e-400") == .int(0))
        #expect(try Self.read("1.5") == .double(1.5))
        #expect(try Self.read("-2.5E-3") == .double(-0.0025))
        for text in ["1E400", "-1e999", "01", "1.", ".5", "+1", "1e", "-", "0x10", "NaN", "Infinity"] {
            #expect(throws: JSONValue.ParsingError.malformed, "\(text)") { try Self.read(text) }
        }
    }

    @Test("Escapes and surrogate pairs decode; unpaired surrogates, raw control characters and bad UTF-8 are refused")
    func strings() throws {
        #expect(try Self.read(#""a\"b\\c\/d\b\f\n\r\t\u00e9\u6211\ud83d\udc4d""#) == .string("a\"b\\c/d\u{8}\u{c}\n\r\té我👍"))
        #expect(try Self.read(#""手机号""#) == .string("手机号"))
        for text in [#""\ud800""#, #""\udc00""#, #""\ud800\u0041""#, #""\x""#, #""\u12""#, "\"a\u{1}b\"", #""open"#] {
            #expect(throws: JSONValue.ParsingError.malformed, "\(text)") { try Self.read(text) }
        }
        #expect(throws: JSONValue.ParsingError.malformed) { try JSONValue(parsing: [0x22, 0xC3, 0x28, 0x22]) }
        #expect(throws: JSONValue.ParsingError.malformed) { try JSONValue(parsing: [0x22, 0xED, 0xA0, 0x80, 0x22]) }
    }

    @Test("Nesting up to the limit is read, deeper is refused")
    func depth() throws {
        let limit = JSONReader.maximumDepth
        let deepest = String(repeating: "[", count: limit) + String(repeating: "]", count: limit)
        #expect(throws: Never.self) { try Self.read(deepest) }
        let tooDeep = String(repeating: "[", count: limit + 1) + String(repeating: "]", count: limit + 1)
        #expect(throws: JSONValue.ParsingError.malformed) { try Self.read(tooDeep) }
    }

    @Test("Literals, whitespace and trailing text")
    func grammar() throws {
        #expect(try Self.read(" \t\n\r{ \"a\" : [ true , false , null ] } \n") == ["a": [true, false, nil]])
        for text in ["", " ", "tru", "nul", "{} {}", "[1] x", "{\"a\" 1}", "{1:2}", "[1 2]", "{\"a\":1,}"] {
            #expect(throws: JSONValue.ParsingError.malformed, "\(text)") { try Self.read(text) }
        }
    }
}

/// The rule for numbers (docs/DECISIONS.md, "JSON numbers"): an exact integer that fits `Int` is
/// that integer; any other number is the nearest `Double` (an integral one that fits `Int` is an
/// int), as JavaScript's `JSON.parse` reads it — not Foundation's, which keeps the integer digits of
/// some texts beyond 2^53.
@Suite("JSONReader: numbers beyond 2^53 are the nearest double, whatever the sign and exponent")
struct JSONNumberRuleTests {
    private static func read(_ text: String) throws(JSONValue.ParsingError) -> JSONValue {
        try JSONValue(parsing: Array(text.utf8))
    }

    // Found by bindery-fuzz (Tests/Fuzz/regressions/number-beyond-2-53-with-fraction): Foundation
    // reads `-66666666666666660.1` as the int -66666666666666660 (the fraction dropped); its
    // nearest double is -66666666666666664.
    @Test("A fraction beyond 2^53 rounds to the nearest double, not towards zero")
    func fractionBeyondExactIntegers() throws {
        #expect(try Self.read("-66666666666666660.1") == .int(-66_666_666_666_666_664))
        #expect(try Self.read("66666666666666660.1") == .int(66_666_666_666_666_664))
        #expect(try Self.read("9007199254740991.9") == .int(9_007_199_254_740_992))
        #expect(try Self.read("123456780123456789.5") == .int(123_456_780_123_456_784))
    }

    @Test("Exponents move the point before anything is rounded")
    func exponents() throws {
        #expect(try Self.read("-66666666666666660.1e0") == .int(-66_666_666_666_666_664))
        #expect(try Self.read("-6666666666666666.01e1") == .int(-66_666_666_666_666_664))
        #expect(try Self.read("-666666666666666601e-1") == .int(-66_666_666_666_666_664))
        #expect(try Self.read("-66666666666666660.1e-1") == .int(-6_666_666_666_666_666))
        #expect(try Self.read("-12345678901234567.9e1") == .int(-123_456_789_012_345_679))
        #expect(try Self.read("6666666666666666E1") == .int(66_666_666_666_666_660))
        #expect(try Self.read("0.000e-99999999") == .int(0))
        #expect(try Self.read("-1e-400") == .int(0))
    }

    @Test("An exact integer keeps every digit, up to Int's range; beyond it, the nearest double")
    func exactIntegers() throws {
        #expect(try Self.read("9007199254740993") == .int(9_007_199_254_740_993))
        #expect(try Self.read("-9007199254740993.000") == .int(-9_007_199_254_740_993))
        #expect(try Self.read("-9223372036854775808.0") == .int(Int.min))
        #expect(try Self.read("9223372036854775807.5") == .double(9_223_372_036_854_775_808))
        // Its nearest double is -2^63, which Int holds.
        #expect(try Self.read("-9223372036854775809") == .int(Int.min))
    }

    @Test("The fuzzer's input reads its bodies by the rule")
    func fuzzFinding() throws {
        let body = "-66666666666666660.1"
        let value = try Self.read(body)
        #expect(value == .int(-66_666_666_666_666_664))
        #expect(value.doubleValue == Double(body))
    }
}
