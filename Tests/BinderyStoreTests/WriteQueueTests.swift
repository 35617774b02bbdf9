@testable import BinderyStore
import Synchronization
import Testing

/// The queue both writers share: batches, holding, closing, and what each caller hears.
@Suite("Write queue")
struct WriteQueueTests {
    /// A write whose step names it, and which records how its caller was answered.
    final class Caller: Sendable {
        let name: String
        let heard = Mutex<String?>(nil)
        init(_ name: String) { self.name = name }

        var write: PendingWrite<String> {
            PendingWrite(run: name, fail: { [self] error in heard.withLock { $0 = "failed: \(error)" } })
        }

        var applied: WriteOutcome { .applied(acknowledge: { [self] in heard.withLock { $0 = "ok" } }) }
    }

    @Test func theFirstWriteStartsTheDrainAndBatchesHoldAtMostTheirSize() {
        let queue = WriteQueue<String>(maxBatchSize: 2)
        let callers = (1...5).map { Caller("w\($0)") }
        #expect(queue.enqueue(callers[0].write).isStartDrain)
        for caller in callers.dropFirst() { #expect(!queue.enqueue(caller.write).isStartDrain) }
        #expect(queue.nextBatch()?.map(\.run) == ["w1", "w2"])
        #expect(queue.nextBatch()?.map(\.run) == ["w3", "w4"])
        #expect(queue.nextBatch()?.map(\.run) == ["w5"])
        #expect(queue.nextBatch() == nil)
        // The drain ended: the next write starts one again.
        #expect(queue.enqueue(Caller("w6").write).isStartDrain)
    }

    @Test func aCommittedBatchAnswersEachCallerAndCountsOnlyTheApplied() {
        let queue = WriteQueue<String>(maxBatchSize: 8)
        let (applied, refused) = (Caller("a"), Caller("r"))
        _ = queue.enqueue(applied.write)
        _ = queue.enqueue(refused.write)
        let batch = queue.nextBatch() ?? []
        queue.committed(batch, outcomes: [applied.applied, .refused(.unavailable(reason: "refused alone"))])
        #expect(applied.heard.withLock { $0 } == "ok")
        #expect(refused.heard.withLock { $0 }?.contains("refused alone") == true)
        #expect(queue.statistics.transactions == 1 && queue.statistics.operations == 1)
    }

    @Test func aFailedBatchFailsEveryCallerNotRefusedAlone() {
        let queue = WriteQueue<String>(maxBatchSize: 8)
        let callers = [Caller("r"), Caller("x"), Caller("y")]
        for caller in callers { _ = queue.enqueue(caller.write) }
        let batch = queue.nextBatch() ?? []
        queue.failed(batch, outcomes: [.refused(.unavailable(reason: "its own"))], reason: "disk full")
        #expect(callers[0].heard.withLock { $0 }?.contains("its own") == true)
        #expect(callers[1].heard.withLock { $0 }?.contains("disk full") == true)
        #expect(callers[2].heard.withLock { $0 }?.contains("disk full") == true)
        #expect(queue.statistics.failedTransactions == 1 && queue.statistics.transactions == 0)
    }

    @Test func aHeldQueueHandsOutNothingUntilReleased() async {
        let queue = WriteQueue<String>(maxBatchSize: 8)
        queue.hold()
        #expect(!queue.enqueue(Caller("w1").write).isStartDrain)
        _ = queue.enqueue(Caller("w2").write)
        await queue.waitUntilQueued(2)
        #expect(queue.release())
        #expect(queue.nextBatch()?.count == 2)
        #expect(queue.nextBatch() == nil)
        await queue.waitUntilIdle()
    }

    @Test func aClosedQueueRefusesWrites() {
        let queue = WriteQueue<String>(maxBatchSize: 8)
        queue.close()
        if case .closed = queue.enqueue(Caller("late").write) {} else { Issue.record("a closed queue took a write") }
        #expect(queue.nextBatch() == nil)
    }
}

extension WriteQueue.Admission {
    var isStartDrain: Bool { if case .startDrain = self { true } else { false } }
}
