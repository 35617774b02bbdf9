import Testing
import Clocks
import Synchronization

/// A `TestClock` that counts its sleeps, so a test can wait until the work it expects is really
/// waiting on the clock before it advances time or cancels: the one virtual clock of Bindery's
/// own tests (the tester's users pass swift-clocks' `TestClock`).
public final class CountingClock: Clock, Sendable {
    public typealias Duration = Swift.Duration
    public typealias Instant = TestClock<Swift.Duration>.Instant

    /// The virtual clock the sleeps really wait on.
    public let base = TestClock()
    private let counts = Mutex((started: 0, inProgress: 0))

    /// Creates a clock at its start.
    public init() {}

    public var now: Instant { base.now }
    public var minimumResolution: Duration { base.minimumResolution }

    public func sleep(until deadline: Instant, tolerance: Duration?) async throws {
        counts.withLock {
            $0.started += 1; $0.inProgress += 1
        }
        defer { counts.withLock { $0.inProgress -= 1 } }
        try await base.sleep(until: deadline, tolerance: tolerance)
    }

    /// The number of sleeps started so far.
    public var sleepsStarted: Int { counts.withLock { $0.started } }

    /// The number of sleeps in progress.
    public var sleepers: Int { counts.withLock { $0.inProgress } }

    /// Advances virtual time, letting every sleep due by then finish.
    public func advance(by duration: Duration) async {
        await base.advance(by: duration)
    }

    /// Lets other tasks run until `count` sleeps have started, then a few turns more so they
    /// have reached the clock; records an issue when they never do. Never sleeps in real time.
    public func waitForSleeps(_ count: Int, sourceLocation: SourceLocation = #_sourceLocation) async {
        await settle(sourceLocation: sourceLocation) { self.sleepsStarted >= count }
        await yieldToOtherTasks(rounds: 5)
    }

    /// Lets other tasks run until `count` sleeps are in progress, then a few turns more so they
    /// have reached the clock; records an issue when they never are. Never sleeps in real time.
    public func waitForSleepers(_ count: Int, sourceLocation: SourceLocation = #_sourceLocation) async {
        await settle(sourceLocation: sourceLocation) { self.sleepers >= count }
        await yieldToOtherTasks(rounds: 5)
    }
}
