import BinderyRuntime
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
