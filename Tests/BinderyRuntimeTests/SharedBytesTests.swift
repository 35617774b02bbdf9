import Testing

@testable import BinderyRuntime

@Suite("SharedBytes and CommittedState: equal content kept once, read back unchanged")
struct SharedBytesTests {
    private static func identity(_ bytes: [UInt8]) -> UnsafeRawPointer? {
        bytes.withUnsafeBytes { $0.baseAddress }
    }

    @Test("An equal buffer comes back as the one the pool already holds")
    func equalBuffersShareStorage() {
        let pool = SharedBytes(slotCount: 4, minimumCount: 8)
        let first = pool.intern(Array("{\"path\":\"list\",\"version\":3}".utf8))
        let second = pool.intern(Array("{\"path\":\"list\",\"version\":3}".utf8))
        #expect(second == first)
        #expect(Self.identity(second) == Self.identity(first))
        let other = pool.intern(Array("{\"path\":\"list\",\"version\":4}".utf8))
        #expect(Self.identity(other) != Self.identity(first))
    }

    @Test("Buffers outside the size range are handed back as they are")
    func sizeRange() {
        let pool = SharedBytes(slotCount: 4, minimumCount: 8, maximumCount: 16)
        let small = Array("tiny".utf8)
        #expect(Self.identity(pool.intern(small)) == Self.identity(small))
        #expect(Self.identity(pool.intern(Array("tiny".utf8))) != Self.identity(small))
        let large = [UInt8](repeating: 1, count: 17)
        _ = pool.intern(large)
        #expect(Self.identity(pool.intern([UInt8](repeating: 1, count: 17))) != Self.identity(large))
    }

    @Test("A buffer matched since the clock hand last passed outlives one that was not")
    func recentlyUsedStays() {
        let pool = SharedBytes(slotCount: 2, minimumCount: 1)
        let kept = pool.intern(Array("kept".utf8))
        _ = pool.intern(Array("gone".utf8))
        _ = pool.intern(Array("kept".utf8))
        _ = pool.intern(Array("new".utf8))
        #expect(Self.identity(pool.intern(Array("kept".utf8))) == Self.identity(kept))
    }

    @Test(
        "A small committed state reads back as it was",
        arguments: [
            JSONValue.null, 7, ["phone": "186", "password": ""], ["error": ["message": "x", "code": 503]],
        ])
    func smallStateRoundTrip(_ value: JSONValue) {
        #expect(CommittedState(value).value == value)
    }

    @Test("A large committed state, kept member by member, reads back as it was")
    func largeStateRoundTrip() {
        let load = JSONValue.array((0..<60).map { ["id": .string("s\($0)"), "price": 12.5, "tags": ["a", nil]] })
        let state: JSONValue = ["currentCityId": 2, "error": nil, "load": ["spots": load, "hotels": []]]
        #expect(JSONWriter.bytes(of: state).count >= CommittedState.splitSize)
        #expect(CommittedState(state).value == state)
    }

    @Test("Two states that share a large member and differ in a small one each read back as they were")
    func largeMemberShared() {
        let load = JSONValue.array((0..<100).map { ["id": .string("s\($0)")] })
        let a = CommittedState(["currentCityId": 1, "load": load])
        let b = CommittedState(["currentCityId": 2, "load": load])
        #expect(a.value == ["currentCityId": 1, "load": load])
        #expect(b.value == ["currentCityId": 2, "load": load])
    }
}

@Suite("What sessions' boards hold, a shared buffer counted once")
struct SnapshotBoardRetainedBytesTests {
    @Test func aBufferTwoBoardsShareCountsOnceAndAnEqualCopyTwice() {
        let bytes = [UInt8](repeating: UInt8(ascii: "x"), count: 300)
        let shared = EncodedSnapshot(path: "form", version: 1, bytes: bytes)
        let (first, second, third) = (SnapshotBoard(), SnapshotBoard(), SnapshotBoard())
        first.publish(shared)
        second.publish(shared)
        #expect(SnapshotBoard.retainedBytes(of: [first, second]) == 300)
        // Equal content in a buffer of its own (not interned) is a second buffer.
        var copy = bytes
        copy.withUnsafeMutableBufferPointer { _ in }
        third.publish(EncodedSnapshot(path: "form", version: 1, bytes: copy))
        #expect(SnapshotBoard.retainedBytes(of: [first, second, third]) == 600)
        #expect(SnapshotBoard.retainedBytes(of: [SnapshotBoard()]) == 0)
    }
}
