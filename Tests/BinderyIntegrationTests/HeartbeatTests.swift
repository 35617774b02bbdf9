import BinderyHTTP
import Clocks
import Testing

@testable import BinderyBinding

/// Heartbeats spread over the interval (one slot of streams at a time), one per stream per
/// interval.
@Suite("Heartbeats")
struct HeartbeatTests {
    static let frame = EventStreams.heartbeatFrame.count

    /// Eight open streams of one session, admitted in order (slots round robin), with a heartbeat
    /// every 4 s: four slots of a second.
    static func openStreams() throws -> (EventStreams, [ResponseStream]) {
        let streams = EventStreams(limits: StreamLimits(perSession: 16, total: 16, heartbeat: .seconds(4)))
        let opened = (0..<8).map { _ in ResponseStream() }
        for stream in opened { try streams.admit(stream, session: "s") }
        return (streams, opened)
    }

    @Test func aSlotsStreamsGetTheirHeartbeatAndTheOthersWait() throws {
        let (streams, opened) = try Self.openStreams()
        #expect(streams.heartbeatSlots == 4)
        streams.beat(slot: 0)
        #expect(opened.map(\.unsentByteCount) == [Self.frame, 0, 0, 0, Self.frame, 0, 0, 0])
        for slot in 1..<4 { streams.beat(slot: slot) }
        #expect(opened.allSatisfy { $0.unsentByteCount == Self.frame })
    }

    @Test func everyStreamGetsOneHeartbeatPerInterval() async throws {
        let (streams, opened) = try Self.openStreams()
        let clock = TestClock()
        let loop = Task { await streams.runHeartbeats(clock: clock) }
        defer { loop.cancel() }
        for tick in 1...4 {
            await sleeping(on: clock)
            await clock.advance(by: .seconds(1))
            // Streams admitted in order sit in slots 0, 1, 2, 3, 0, …: after tick n, slots below n.
            let expected = (0..<8).map { $0 % 4 < tick ? Self.frame : 0 }
            await waitUntil { opened.map(\.unsentByteCount) == expected }
            #expect(opened.map(\.unsentByteCount) == expected, "after tick \(tick)")
        }
        for _ in 1...4 {
            await sleeping(on: clock)
            await clock.advance(by: .seconds(1))
        }
        await waitUntil { opened.allSatisfy { $0.unsentByteCount == 2 * Self.frame } }
        #expect(opened.allSatisfy { $0.unsentByteCount == 2 * Self.frame }, "one more each in the next interval")
    }

    /// Waits until the heartbeat loop sleeps on `clock`: an advance before that would pass it by
    /// (its sleep would start from the advanced time), and under load the loop's task starts late.
    private func sleeping(on clock: TestClock<Duration>) async {
        let started = ContinuousClock.now
        while (try? await clock.checkSuspension()) != nil, ContinuousClock.now - started < .seconds(5) {}
    }

    /// Yields until `condition` holds (the heartbeat loop runs on its own task); real time only
    /// bounds the wait.
    private func waitUntil(_ condition: () -> Bool) async {
        let started = ContinuousClock.now
        while !condition(), ContinuousClock.now - started < .seconds(5) { await Task.yield() }
    }
}
