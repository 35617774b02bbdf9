@testable import BinderyRuntime
import Testing

/// Text operations: applying, transforming (as ShareDB's text0 does), differences, JSON.
@Suite("Text operations")
struct TextOperationTests {
    @Test func applyingCountsOffsetsInUnicodeScalarsAndChecksDeletedText() throws {
        let text = "🎞 C-41"
        #expect(try TextOperation([.insert("x", at: 1)]).apply(to: text) == "🎞x C-41")
        #expect(try TextOperation([.delete(" C", at: 1), .insert("E", at: 1)]).apply(to: text) == "🎞E-41")
        #expect(throws: TextOperationError.offsetOutOfRange(component: 0, length: 6)) {
            try TextOperation([.insert("x", at: 7)]).apply(to: text)
        }
        #expect(throws: TextOperationError.deletedTextDiffers(component: 0)) {
            try TextOperation([.delete("C", at: 1)]).apply(to: text)
        }
    }

    @Test func concurrentInsertsAtOneOffsetPutTheLeftOneFirst() throws {
        let left = TextOperation([.insert("a", at: 1)])
        let right = TextOperation([.insert("b", at: 1)])
        #expect(try left.transformed(against: right, side: .left) == TextOperation([.insert("a", at: 1)]))
        #expect(try right.transformed(against: left, side: .right) == TextOperation([.insert("b", at: 2)]))
        let viaLeft = try right.transformed(against: left, side: .right).apply(to: left.apply(to: "xy"))
        let viaRight = try left.transformed(against: right, side: .left).apply(to: right.apply(to: "xy"))
        #expect(viaLeft == "xaby")
        #expect(viaRight == "xaby")
    }

    @Test func aDeletionAroundAConcurrentInsertionKeepsTheInsertion() throws {
        let deletion = TextOperation([.delete("bcd", at: 1)])
        let insertion = TextOperation([.insert("X", at: 2)])
        let rebased = try deletion.transformed(against: insertion, side: .left)
        #expect(rebased == TextOperation([.delete("b", at: 1), .delete("cd", at: 2)]))
        #expect(try rebased.apply(to: insertion.apply(to: "abcde")) == "aXe")
    }

    @Test func overlappingDeletionsDeleteOnce() throws {
        let first = TextOperation([.delete("bcd", at: 1)])
        let second = TextOperation([.delete("cde", at: 2)])
        let rebased = try second.transformed(against: first, side: .left)
        #expect(rebased == TextOperation([.delete("e", at: 1)]))
        #expect(try rebased.apply(to: first.apply(to: "abcdef")) == "af")
        #expect(throws: TextOperationError.overlappingDeletionsDiffer) {
            try TextOperation([.delete("zz", at: 2)]).transformed(against: first, side: .left)
        }
    }

    @Test func aCaretMovesWithTheTextBeforeIt() {
        let operation = TextOperation([.insert("ab", at: 0), .delete("cd", at: 4)])
        #expect(operation.transformPosition(1) == 3)  // after the insertion
        #expect(operation.transformPosition(3) == 4)  // inside the deletion: at its start
        #expect(operation.transformPosition(5) == 5)  // after the deletion
        #expect(operation.transformPosition(9) == 9)
        #expect(TextOperation([.insert("x", at: 2)]).transformPosition(2) == 2)
        #expect(TextOperation([.insert("x", at: 2)]).transformPosition(2, insertAfter: true) == 3)
    }

    @Test func aWholeValueChangeIsTheDifferenceBetweenCommonPrefixAndSuffix() throws {
        let change = TextOperation.difference(from: "Kodak C-41", to: "Kodak E-6 kit")
        #expect(change == TextOperation([.delete("C-41", at: 6), .insert("E-6 kit", at: 6)]))
        #expect(try change.apply(to: "Kodak C-41") == "Kodak E-6 kit")
        #expect(TextOperation.difference(from: "same", to: "same").isEmpty)
        #expect(TextOperation.difference(from: "aaa", to: "aaaa") == TextOperation([.insert("a", at: 3)]))
    }

    @Test func neighbouringComponentsJoin() {
        let typed = TextOperation([.insert("a", at: 3), .insert("b", at: 4), .insert("c", at: 5)])
        #expect(typed == TextOperation([.insert("abc", at: 3)]))
        let backspaced = TextOperation([.delete("c", at: 5), .delete("b", at: 4)])
        #expect(backspaced == TextOperation([.delete("bc", at: 4)]))
        #expect(TextOperation([.insert("", at: 1), .delete("", at: 0)]).isEmpty)
    }

    @Test func jsonIsJson0sStringForm() throws {
        let json: JSONValue = .array([.object(["p": 1, "si": "ab"]), .object(["p": 0, "sd": "x"])])
        let operation = try TextOperation(json: json)
        #expect(operation == TextOperation([.insert("ab", at: 1), .delete("x", at: 0)]))
        #expect(operation.json == json)
        for bad: JSONValue in [
            .object([:]), .array([.int(1)]), .array([.object(["p": -1, "si": "a"])]),
            .array([.object(["p": 0, "si": "a", "sd": "b"])]), .array([.object(["p": 0])]),
            .array([.object(["p": 0, "si": "a", "x": 1])]), .array([.object(["p": 0, "si": 3])]),
        ] {
            #expect(throws: TextOperationDecodingError.self) { try TextOperation(json: bad) }
        }
    }

    @Test func theLogAnswersEditsSinceARevisionUntilItForgetsThem() throws {
        var log = RecordEditLog(version: 3, limit: 2)
        let edit = TextEdit(id: "c-1", revision: 4, operation: TextOperation([.insert("x", at: 0)]))
        log.record(version: 4, edits: ["name": edit])
        log.record(version: 5, edits: [:])
        #expect(log.edits(of: "name", after: 3) == TextEdits(from: 3, revision: 5, edits: [edit]))
        #expect(log.edits(of: "blurb", after: 3) == TextEdits(from: 3, revision: 5, edits: []))
        #expect(log.edit(of: "name", id: "c-1") == edit)
        #expect(try log.rebase(TextOperation([.insert("y", at: 0)]), of: "name", on: 3) == TextOperation([.insert("y", at: 0)]))
        log.record(version: 6, edits: [:])
        #expect(log.start == 4)
        #expect(log.edits(of: "name", after: 3) == nil)
        #expect(throws: TextRebaseError.tooOld(oldest: 4)) { try log.rebase(TextOperation(), of: "name", on: 3) }
        #expect(throws: TextRebaseError.ahead(latest: 6)) { try log.rebase(TextOperation(), of: "name", on: 7) }
        log.record(version: 9, edits: [:])
        #expect(log.start == 8)
    }
}
