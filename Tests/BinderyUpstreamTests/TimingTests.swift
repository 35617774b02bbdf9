import BinderyTestSupport
import BinderyUpstream
import Clocks
import Foundation
import Testing

@Suite("Calls wait on the injected clock")
struct TimingTests {
    let clock = CountingClock()

    @Test func callFinishesOnlyAfterItsLatency() async throws {
        let provider = UpstreamProvider(settings: .uniform(EndpointSettings(latencyMs: 1000)), clock: clock)
        let finished = Flag()
        let call = Task {
            defer { finished.set() }
            return try await provider.hotels()
        }
        await clock.waitForSleepers(1)
        await clock.advance(by: .milliseconds(999))
        #expect(!finished.isSet)
        await clock.advance(by: .milliseconds(1))
        #expect(try await call.value.count == 18)
        #expect(finished.isSet)
    }

    @Test func concurrentCallsBothFinishAfterOneSecond() async throws {
        let provider = UpstreamProvider(settings: .uniform(EndpointSettings(latencyMs: 1000)), clock: clock)
        async let spots = provider.travel()
        async let hotels = provider.hotels()
        await clock.waitForSleepers(2)
        #expect(clock.sleepers == 2)
        await clock.advance(by: .seconds(1))
        let (s, h) = try await (spots, hotels)
        #expect(s.count == 24 && h.count == 18)
        #expect(clock.now == TestClock<Duration>.Instant(offset: .seconds(1)))
    }

    @Test func failureComesAfterTheLatencyToo() async throws {
        let provider = UpstreamProvider(
            settings: .uniform(EndpointSettings(latencyMs: 1000, failureRate: 1)), clock: clock
        )
        let call = Task { try await provider.travel() }
        await clock.waitForSleepers(1)
        await clock.advance(by: .seconds(1))
        await #expect(throws: UpstreamError(endpoint: .travel, code: 500, message: "Bad Network")) {
            try await call.value
        }
    }

    @Test func cancellationStopsAWaitingCall() async throws {
        let provider = UpstreamProvider(settings: .uniform(EndpointSettings(latencyMs: 1000)), clock: clock)
        let call = Task { try await provider.photos() }
        await clock.waitForSleepers(1)
        #expect(clock.sleepers == 1)
        call.cancel()
        await #expect(throws: UpstreamError.cancelled(.photos)) {
            try await call.value
        }
        #expect(clock.sleepers == 0)
        #expect(clock.now == TestClock<Duration>.Instant())
    }

    @Test func cancelledCallerWithoutLatencyIsCancelledToo() async throws {
        let provider = UpstreamProvider(settings: .uniform(), clock: clock)
        let call = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return try await provider.travel()
        }
        await #expect(throws: UpstreamError.cancelled(.travel)) {
            try await call.value
        }
    }

    @Test func timeoutFailsAfterTimeoutMs() async throws {
        let provider = UpstreamProvider(
            settings: .uniform(EndpointSettings(latencyMs: 1000, timeoutRate: 1, timeoutMs: 5000)), clock: clock
        )
        let finished = Flag()
        let call = Task {
            defer { finished.set() }
            return try await provider.photoDetails(id: "p01")
        }
        await clock.waitForSleepers(1)
        await clock.advance(by: .milliseconds(4999))
        #expect(!finished.isSet)
        await clock.advance(by: .milliseconds(1))
        await #expect(throws: UpstreamError(endpoint: .photoDetails, code: 504, message: "Timeout")) {
            try await call.value
        }
    }

    @Test func updatedLatencyAppliesToTheNextCall() async throws {
        let provider = UpstreamProvider(settings: .uniform(EndpointSettings(latencyMs: 1000)), clock: clock)
        try provider.update(patch: Data(#"{"endpoints": {"hotel": {"latencyMs": 3000}}}"#.utf8))
        let finished = Flag()
        let call = Task {
            defer { finished.set() }
            return try await provider.hotels()
        }
        await clock.waitForSleepers(1)
        await clock.advance(by: .seconds(2))
        #expect(!finished.isSet)
        await clock.advance(by: .seconds(1))
        #expect(try await call.value.count == 18)
    }
}
