import Clocks
import Synchronization

/// A `TestClock` that counts the sleeps in progress, so a test can wait until its calls are
/// really waiting on the clock before it advances or cancels.
final class WatchedClock: Clock, Sendable {
    typealias Duration = Swift.Duration
    typealias Instant = TestClock<Swift.Duration>.Instant

    /// The virtual clock underneath.
    let base = TestClock()
    /// The sleeps in progress.
    private let sleeping = Mutex(0)

    var now: Instant { base.now }
    var minimumResolution: Duration { base.minimumResolution }

    func sleep(until deadline: Instant, tolerance: Duration?) async throws {
        sleeping.withLock { $0 += 1 }
        defer { sleeping.withLock { $0 -= 1 } }
        try await base.sleep(until: deadline, tolerance: tolerance)
    }

    /// The number of sleeps in progress.
    var sleepers: Int { sleeping.withLock { $0 } }

    /// Yields until `count` sleeps are in progress (bounded, never a real sleep), then a little
    /// more, so that the sleeps have also reached the test clock.
    func waitForSleepers(_ count: Int) async {
        var tries = 0
        while sleepers < count, tries < 100_000 {
            await Task.yield()
            tries += 1
        }
        for _ in 0..<50 {
            await Task.yield()
        }
    }

    /// Advances virtual time.
    func advance(by duration: Duration) async {
        await base.advance(by: duration)
    }
}

/// A flag set once from another task.
final class Flag: Sendable {
    private let state = Mutex(false)

    /// Whether the flag is set.
    var isSet: Bool { state.withLock { $0 } }

    /// Sets the flag.
    func set() { state.withLock { $0 = true } }
}
