import BinderyStore
import BinderyTestSupport
import Foundation
import Synchronization
import Testing

@testable import BinderyBinding

/// What a node tells a shared store it holds: one hold per space however many claim it, the
/// release after the last claim, and the store's calls for a space in the order claims changed.
@Suite("Held spaces", .timeLimit(.minutes(1)))
struct HeldSpacesTests {
    static let space = SessionTokenHash(bytes: Data(repeating: 9, count: 32))!

    /// A switch tests turn on and off.
    final class Switch: Sendable {
        private let state: Mutex<Bool>
        init(_ on: Bool) { state = Mutex(on) }
        var isOn: Bool {
            get { state.withLock { $0 } }
            set { state.withLock { $0 = newValue } }
        }
    }

    /// Calls that record what the store was asked, in order; a release waits at `releaseGate`
    /// when one is given, a hold fails while `failing` is on.
    static func recording(
        _ recorder: Recorder<String>, releaseGate: Gate? = nil, failing: Switch = Switch(false)
    ) -> HeldSpaces.Calls {
        HeldSpaces.Calls(
            hold: { _ in
                if failing.isOn {
                    recorder.append("hold refused")
                    throw StoreError.unavailable(reason: "down")
                }
                recorder.append("hold")
            },
            release: { _ in
                recorder.append("release started")
                try await releaseGate?.wait()
                recorder.append("released")
            }
        )
    }

    @Test func aSpaceIsHeldOnceAndReleasedAfterItsLastClaim() async throws {
        let recorder = Recorder<String>()
        let held = HeldSpaces(calls: Self.recording(recorder))
        try await held.acquire(Self.space)
        try await held.acquire(Self.space)
        #expect(recorder.values == ["hold"])
        #expect(held.claims(on: Self.space) == 2)
        held.release(Self.space)
        await yieldToOtherTasks(rounds: 5)
        #expect(recorder.values == ["hold"], "a claim is left: the space stays held")
        held.release(Self.space)
        #expect(await settle { recorder.values == ["hold", "release started", "released"] })
        #expect(held.claims(on: Self.space) == 0)
    }

    @Test func aClaimAfterAReleaseHoldsAgainOnlyOnceTheReleaseIsDone() async throws {
        let recorder = Recorder<String>()
        let gate = Gate()
        let held = HeldSpaces(calls: Self.recording(recorder, releaseGate: gate))
        try await held.acquire(Self.space)
        held.release(Self.space)
        #expect(await settle { recorder.values == ["hold", "release started"] })
        // A session loaded again while the store is still releasing: its hold must land after the
        // release, or the store would forget a space this node reads.
        let reload = Task { () async throws in try await held.acquire(Self.space) }
        await yieldToOtherTasks(rounds: 10)
        #expect(recorder.values == ["hold", "release started"])
        gate.open()
        try await reload.value
        #expect(recorder.values == ["hold", "release started", "released", "hold"])
        #expect(held.claims(on: Self.space) == 1)
    }

    @Test func aRefusedHoldClaimsNothingAndTheNextClaimAsksAgain() async throws {
        let recorder = Recorder<String>()
        let failing = Switch(true)
        let held = HeldSpaces(calls: Self.recording(recorder, failing: failing))
        await #expect(throws: StoreError.self) { try await held.acquire(Self.space) }
        #expect(held.claims(on: Self.space) == 0)
        failing.isOn = false
        try await held.acquire(Self.space)
        // The refused claim's release (the store may have kept the row) comes first, then the hold.
        #expect(recorder.values == ["hold refused", "release started", "released", "hold"])
        #expect(held.claims(on: Self.space) == 1)
    }

    @Test func withoutAChangeFeedNothingIsAsked() async throws {
        let held = HeldSpaces(feed: nil)
        try await held.acquire(Self.space)
        held.release(Self.space)
        #expect(held.claims(on: Self.space) == 0)
    }
}
