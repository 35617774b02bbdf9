@testable import BinderyBinding
import Testing

/// The sign-in limits (issue 37), on an instant given by hand: an attempt counts as failed from
/// the moment it is admitted, so attempts made together meet the limit; a success clears its
/// account and takes its own attempt back from the address; an attempt that could not be
/// checked counts nowhere.
@Suite("Sign-in limits: attempts counted when admitted")
struct SignInThrottleTests {
    let start = ContinuousClock.now

    @Test func attemptsMadeTogetherMeetTheAccountsLimit() {
        let throttle = SignInThrottle(accountLimit: 5, addressLimit: 20, window: .seconds(900))
        // Twenty attempts under way at once, none answered yet: five are admitted.
        var admitted = 0
        for _ in 0..<20 {
            if case .success = throttle.admit(account: "Ada", address: "10.0.0.1", at: start) { admitted += 1 }
        }
        #expect(admitted == 5)
        #expect(throttle.retryAfter(account: "ada", address: nil, at: start) == 900, "any letter case, the full window")
        #expect(throttle.retryAfter(account: "ada", address: nil, at: start + .seconds(900)) == nil, "the window passed")
    }

    @Test func aSuccessClearsTheAccountAndTakesItsAttemptBackFromTheAddress() throws {
        let throttle = SignInThrottle(accountLimit: 5, addressLimit: 3, window: .seconds(900))
        for name in ["a", "b"] {
            guard case .success = throttle.admit(account: name, address: "10.0.0.1", at: start) else {
                Issue.record("admitted")
                return
            }
        }
        let right = try throttle.admit(account: "ada", address: "10.0.0.1", at: start).get()
        throttle.succeeded(right)
        #expect(throttle.retryAfter(account: "ada", address: "10.0.0.1", at: start) == nil)
        // Two failures from the address count; the success does not: one more attempt is admitted.
        #expect((try? throttle.admit(account: "c", address: "10.0.0.1", at: start).get()) != nil)
        #expect(throttle.retryAfter(account: "d", address: "10.0.0.1", at: start) == 900, "three failures: the address waits")
    }

    @Test func anAttemptThatCouldNotBeCheckedCountsNowhere() throws {
        let throttle = SignInThrottle(accountLimit: 1, addressLimit: 1, window: .seconds(900))
        let attempt = try throttle.admit(account: "ada", address: "10.0.0.1", at: start).get()
        #expect(throttle.retryAfter(account: "ada", address: "10.0.0.1", at: start) == 900, "counted while under way")
        throttle.uncounted(attempt)
        #expect(throttle.retryAfter(account: "ada", address: "10.0.0.1", at: start) == nil)
    }
}
