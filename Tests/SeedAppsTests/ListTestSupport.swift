import BinderyRuntime
import BinderyUpstream
import Clocks
import Foundation
import Synchronization
import Testing

/// A `TestClock` that also counts the sleeps started on it, so a test can wait until the
/// upstream calls it expects are waiting before it advances time.
final class CountingTestClock: Clock, Sendable {
    typealias Instant = TestClock<Duration>.Instant

    /// The clock the sleeps really wait on.
    let base = TestClock<Duration>()
    private let started = Mutex(0)

    var now: Instant { base.now }
    var minimumResolution: Duration { base.minimumResolution }

    /// The number of sleeps started so far.
    var sleepsStarted: Int { started.withLock { $0 } }

    func sleep(until deadline: Instant, tolerance: Duration?) async throws {
        started.withLock { $0 += 1 }
        try await base.sleep(until: deadline, tolerance: tolerance)
    }

    /// Advances virtual time, letting every sleep due by then finish.
    func advance(by duration: Duration) async {
        await base.advance(by: duration)
    }

    /// Waits (without real sleeping) until `count` sleeps have started, then lets them register.
    func waitForSleeps(_ count: Int, sourceLocation: SourceLocation = #_sourceLocation) async {
        await settle(sourceLocation: sourceLocation) { self.sleepsStarted >= count }
        await yieldToOtherTasks(rounds: 5)
    }
}

/// A fake upstream on a test clock: every endpoint answers after one second, without failures,
/// unless `endpoints` says otherwise.
func makeTestUpstream(
    _ endpoints: [UpstreamEndpoint: EndpointSettings] = [:], seed: UInt64 = 42
) -> (UpstreamProvider, CountingTestClock) {
    let clock = CountingTestClock()
    let upstream = UpstreamProvider(settings: UpstreamSettings(seed: seed, endpoints: endpoints), clock: clock)
    return (upstream, clock)
}

/// Lets other tasks run, on this actor and on the global executor, for `rounds` turns.
/// Never sleeps in real time.
func yieldToOtherTasks(rounds: Int = 1) async {
    for _ in 0..<rounds {
        await Task.detached(priority: .background) { await Task.yield() }.value
        await Task.yield()
    }
}

/// Lets other tasks run until `condition` holds; records an issue when it still does not hold
/// after `rounds` turns. Never sleeps in real time.
@discardableResult
func settle(
    rounds: Int = 2000, sourceLocation: SourceLocation = #_sourceLocation, until condition: () async -> Bool
) async -> Bool {
    for _ in 0..<rounds {
        if await condition() { return true }
        await yieldToOtherTasks()
    }
    Issue.record("condition did not hold after \(rounds) turns", sourceLocation: sourceLocation)
    return false
}

/// Whether `error` is `ViewModelError.invalidArgument` for `command`.
func isInvalidArgument(_ error: any Error, command: String) -> Bool {
    if case .invalidArgument(command: command, _)? = error as? ViewModelError { return true }
    return false
}

/// Collects the snapshots a graph sends to a watcher.
final class ListSnapshotRecorder: Sendable {
    private let snapshots = Mutex<[EncodedSnapshot]>([])

    /// The snapshots received so far.
    var received: [EncodedSnapshot] { snapshots.withLock { $0 } }

    /// The callback to hand to `ViewModelGraph.watch`.
    var send: @Sendable (EncodedSnapshot) -> Void {
        { [self] snapshot in self.snapshots.withLock { $0.append(snapshot) } }
    }
}

extension EncodedSnapshot {
    /// The snapshot decoded back into JSON.
    func decoded() throws -> JSONValue {
        try JSONDecoder().decode(JSONValue.self, from: Data(bytes))
    }

    /// `outputs[name]` of the decoded snapshot.
    func output(_ name: String) throws -> JSONValue? {
        try decoded().objectValue?["outputs"]?.objectValue?[name]
    }
}
