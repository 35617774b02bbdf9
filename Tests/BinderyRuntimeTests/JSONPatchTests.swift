import BinderyRuntime
import Testing

@Suite("JSON Patch (RFC 6902) between snapshots")
struct JSONPatchTests {
    static let pairs: [(JSONValue, JSONValue)] = [
        (["a": 1, "b": ["c": "x"]], ["a": 1, "b": ["c": "y"]]),
        (["a": 1, "gone": true], ["a": 2, "new": ["deep": [1, 2]]]),
        (["items": [["id": "a", "n": 1], ["id": "b", "n": 2]]], ["items": [["id": "a", "n": 1], ["id": "b", "n": 3]]]),
        (["items": [1, 2, 3]], ["items": [1, 2]]),
        (["a/b": 1, "m~n": 2], ["a/b": 3, "m~n": 4]),
        (["x": .null], ["x": ["now": "object"]]),
        (["same": "value"], ["same": "value"]),
        // A name starting with a combining mark, and "/" or "~" before one (found by bindery-fuzz:
        // split by Characters, "/\u{06D6}" was not a pointer, and "/\u{0301}" was not escaped).
        (["\u{06D6}ems": 1, "/\u{0301}": 2, "~\u{0301}": 3], ["\u{06D6}ems": 4, "/\u{0301}": 5, "~\u{0301}": 6]),
    ]

    @Test("Applying the diff gives the new document", arguments: 0..<8)
    func diffThenApply(_ index: Int) throws {
        let (old, new) = Self.pairs[index]
        let patch = JSONPatch.diff(from: old, to: new)
        #expect(try JSONPatch.apply(patch, to: old) == new)
        if old == new { #expect(patch.isEmpty) }
    }

    @Test func onlyWhatChangedIsSent() {
        let patch = JSONPatch.diff(from: ["a": 1, "b": ["c": "x", "d": "same"]], to: ["a": 1, "b": ["c": "y", "d": "same"]])
        #expect(patch == [["op": "replace", "path": "/b/c", "value": "y"]])
        #expect(JSONPatch.diff(from: ["a/b": 1], to: ["a/b": 2]) == [["op": "replace", "path": "/a~1b", "value": 2]])
    }

    @Test func aPatchBetweenVersionsTestsItsBaseFirst() throws {
        let patch = JSONPatch.between(base: 4, ["phone": "1"], version: 5, ["phone": "12"])
        #expect(patch.first == ["op": "test", "path": "/version", "value": 4])
        #expect(patch.last == ["op": "replace", "path": "/version", "value": 5])
        #expect(try JSONPatch.apply(patch, to: ["phone": "1", "version": 4]) == ["phone": "12", "version": 5])
        #expect(throws: JSONPatch.ApplyError.self) { try JSONPatch.apply(patch, to: ["phone": "1", "version": 3]) }
    }
}
