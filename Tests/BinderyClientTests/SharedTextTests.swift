@testable import BinderyClient
import Testing

@Suite("A collaborative text's client state: one op in flight, others' edits transformed")
struct SharedTextTests {
    @Test func anEditArrivingWhileOneIsInFlightIsMergedThenOursIsAcknowledged() throws {
        var text = SharedText(text: "hello", revision: 1)
        #expect(text.edit(to: "hello world") == 1)
        let sending = text.send()
        let sent = try #require(sending)
        #expect(sent.base == 1 && sent.sent.json == [["p": 5, "si": " world"]])
        #expect(text.edit(to: "hello world!") == 2)
        let second = text.send()
        #expect(second == nil, "one in flight; the rest waits")
        let theirs: JSONValue = [["id": "other", "revision": 2, "ops": [["p": 0, "si": "Oh, "]]]]
        #expect(try text.integrate(from: 1, revision: 2, edits: theirs))
        #expect(text.local == "Oh, hello world!")
        let ours: JSONValue = [["id": .string(sent.id), "revision": 3, "ops": [["p": 9, "si": " world"]]]]
        #expect(try text.integrate(from: 2, revision: 3, edits: ours))
        #expect(text.server == "Oh, hello world" && text.answered == 1)
        let sendingNext = text.send()
        let next = try #require(sendingNext)
        #expect(next.base == 3 && next.sent.json == [["p": 15, "si": "!"]])
        #expect(try text.integrate(from: 5, revision: 6, edits: []) == false, "a gap: reload")
    }

    @Test func aTooOldOperationIsRebasedOnTheReloadedText() throws {
        var text = SharedText(text: "hello", revision: 1)
        _ = text.edit(to: "hello world")
        #expect(text.send() != nil)
        text.tooOld()
        let blocked = text.send()
        #expect(text.needsReload && blocked == nil)
        try text.rebase(text: "Oh, hello", revision: 90)
        #expect(text.local == "Oh, hello world")
        let resending = text.send()
        let resent = try #require(resending)
        #expect(resent.base == 90 && resent.sent.json == [["p": 9, "si": " world"]])
    }
}
