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
