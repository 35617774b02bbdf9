@testable import BinderyStore
import Foundation
import Testing

@Suite("Session token hashes: 32 bytes held inline, ordered as SQLite orders their BLOBs")
struct SessionTokenHashTests {
    @Test func theBytesComeBackAsTheyWentIn() throws {
        let bytes = Data((0..<32).map { UInt8($0 * 7 + 3) })
        let hash = try #require(SessionTokenHash(bytes: bytes))
        #expect(hash.bytes == bytes)
        #expect(hash.description == "030a1118")
        #expect(hash == SessionTokenHash(bytes: bytes))
        #expect(SessionTokenHash(bytes: bytes.dropLast()) == nil)
        #expect(SessionTokenHash(bytes: bytes + [0]) == nil)
    }

    @Test func hashesOrderByteByByte() throws {
        var low = Data(repeating: 0, count: 32)
        var high = low
        low[31] = 0xff
        high[8] = 0x01
        let sorted = try [high, low].map { try #require(SessionTokenHash(bytes: $0)) }
            .sorted { $0.precedes($1) }
        #expect(sorted.map(\.bytes) == [low, high])
        let set = Set(try [low, high, low].map { try #require(SessionTokenHash(bytes: $0)) })
        #expect(set.count == 2)
    }
}
