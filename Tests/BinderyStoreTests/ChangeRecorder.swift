import Foundation
import Synchronization
import Testing

@testable import BinderyStore

/// Collects a change stream in the background, so a test can wait for an element with a deadline.
final class ChangeRecorder: Sendable {
    /// The elements received so far, shared with the reading task.
    private final class Received: Sendable {
        let changes = Mutex<[StoreChange]>([])
    }

    private let received = Received()
    private let task: Task<Void, Never>

    init(_ stream: AsyncStream<StoreChange>) {
        let received = self.received
        task = Task {
            for await change in stream {
                received.changes.withLock { $0.append(change) }
            }
        }
    }

    deinit { task.cancel() }

    var changes: [StoreChange] {
        received.changes.withLock { $0 }
    }

    /// Waits until the elements satisfy `condition`, failing the test after `seconds`.
    func wait(
        _ what: String, within seconds: Double = 5, until condition: ([StoreChange]) -> Bool,
        sourceLocation: SourceLocation = #_sourceLocation
    ) async throws {
        let deadline = ContinuousClock.now + .seconds(seconds)
        while ContinuousClock.now < deadline {
            if condition(changes) { return }
            try await Task.sleep(for: .milliseconds(10))
        }
        Issue.record("timed out after \(seconds) s waiting for \(what); received \(changes)", sourceLocation: sourceLocation)
        throw CancellationError()
    }

    /// How many `resynchronize` markers arrived.
    var resynchronizations: Int {
        changes.count { $0 == .resynchronize }
    }

    /// The view-model changes that arrived, in order.
    var viewModelChanges: [ViewModelChange] {
        changes.compactMap { if case .changed(let change) = $0 { change } else { nil } }
    }
}
