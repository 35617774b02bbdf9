@testable import BinderyClient
import Testing

@Suite("The event stream's parser")
struct ServerSentEventParserTests {
    /// A bare `data` line is an empty data line: its event is dispatched, with empty data (WHATWG).
    @Test func eventsAreTheSameHoweverTheBytesAreCut() {
        let text = "retry: 2000\n\n: heartbeat\r\nid: 7\r\ndata: {\"a\":\r\ndata:1}\r\n\r\nevent: patch\rid: 8\rdata: []\r\revent: edits\ndata\n\n"
        let expected = [
            ServerSentEvent(type: nil, id: "7", data: "{\"a\":\n1}"),
            ServerSentEvent(type: "patch", id: "8", data: "[]"),
            ServerSentEvent(type: "edits", id: nil, data: ""),
        ]
        let bytes = Array(text.utf8)
        for size in [1, 2, 3, 7, bytes.count] {
            var parser = ServerSentEventParser()
            var events: [ServerSentEvent] = []
            for start in stride(from: 0, to: bytes.count, by: size) {
                events += parser.feed(bytes[start..<min(start + size, bytes.count)])
            }
            #expect(events == expected, "chunks of \(size)")
        }
    }

    @Test func anEventWithoutDataIsNotDispatched() {
        var parser = ServerSentEventParser()
        #expect(parser.feed(Array("id: 3\n\nevent: x\n\n".utf8)).isEmpty)
        #expect(parser.feed(Array("data: é\n\n".utf8)) == [ServerSentEvent(type: nil, id: nil, data: "é")])
    }
}

@Suite("Back-off, coalesced writes and problems")
struct ClientPartsTests {
    @Test func theBackOffDoublesUpToItsMaximumWithJitter() {
        let backoff = Backoff(initial: .milliseconds(200), maximum: .seconds(5))
        #expect(backoff.delay(attempt: 1, random: 1) == .milliseconds(200))
        #expect(backoff.delay(attempt: 1, random: 0) == .milliseconds(100))
        #expect(backoff.delay(attempt: 3, random: 1) == .milliseconds(800))
        #expect(backoff.delay(attempt: 20, random: 1) == .seconds(5))
        #expect(backoff.delay(attempt: 20, random: 0) == .milliseconds(2500))
    }

    @Test func writesMadeWhileOneIsInFlightGoTogetherInTheNext() {
        var writes = PendingWrites()
        _ = writes.add(["phone": "1"], shown: 4)
        let first = writes.next()
        #expect(first?.values == ["phone": "1"])
        #expect(first?.ifMatch == 4)
        _ = writes.add(["phone": "12"], shown: 4)
        let last = writes.add(["phone": "123", "password": "x"], shown: 4)
        #expect(writes.next() == nil, "one in flight at a time")
        #expect(writes.shown == ["phone": "123", "password": "x"])
        writes.answered(version: 5)
        let second = writes.next()
        #expect(second?.values == ["phone": "123", "password": "x"])
        #expect(second?.ifMatch == 5, "written on top of this client's own answer: no conflict with it")
        #expect(second?.last == last)
        #expect(second?.key != first?.key)
        writes.answered(version: 6)
        #expect(writes.isEmpty)
    }

    @Test func aProblemReadsTheServersDocument() {
        let problem = RemoteProblem(
            status: 412,
            document: [
                "title": "Version mismatch", "detail": "Changed since…", "fields": ["phone"], "status": 412,
            ])
        #expect(problem.fields == ["phone"])
        #expect(problem.field == nil)
        #expect(problem.description == "412 Version mismatch: Changed since…")
        #expect(RemoteProblem(status: 502, document: nil).title == "HTTP 502")
        #expect(RemoteProblem(status: 409, document: ["title": "Command cancelled"]).isCancellation)
    }
}
