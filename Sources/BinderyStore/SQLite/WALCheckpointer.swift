import GRDB
import Synchronization

/// Folds an SQLite store's write-ahead log back into the database file on a connection of its
/// own, so a checkpoint's fsyncs never stall the single writer.
///
/// SQLite's own automatic checkpoint runs inside the commit that crosses the threshold, on the
/// writer: with `synchronous = NORMAL` it syncs the log and the file, and every write queued
/// behind it waits (with checkpoints off, the PATCH bench ran about 1.6× faster at 256
/// connections). Here the writer only reports its commits; every `interval` transactions, and
/// whenever the writer goes idle after some, a `PASSIVE` checkpoint runs on this connection. It
/// takes no writer lock and waits for nobody, so commits carry on meanwhile. The writer keeps a
/// far higher automatic threshold of its own as a bound, should this fall behind.
final class WALCheckpointer: Sendable {
    private struct State {
        var commitsSince = 0
        var isRunning = false
        var isClosed = false
        var checkpoints = 0
        var lastResult: (walFrameCount: Int, checkpointedFrameCount: Int)?
        var idleWaiters: [CheckedContinuation<Void, Never>] = []
    }

    private let connection: DatabaseQueue
    private let interval: Int
    private let state = Mutex(State())

    /// A checkpointer for the database file at `path`, checkpointing every `interval` commits.
    init(path: String, configuration: Configuration, interval: Int = 32) throws {
        connection = try DatabaseQueue(path: path, configuration: configuration)
        self.interval = max(1, interval)
    }

    /// The writer committed a transaction.
    func committed() {
        start { state in
            state.commitsSince += 1
            return state.commitsSince >= interval
        }
    }

    /// The writer has nothing queued: fold in whatever it committed since the last checkpoint.
    func writerIdle() {
        start { $0.commitsSince > 0 }
    }

    /// Checkpoints run so far, and what the last one found: the frames in the log and how many of
    /// them are in the database file now (nil when it failed or none ran).
    var statistics: (checkpoints: Int, last: (walFrameCount: Int, checkpointedFrameCount: Int)?) {
        state.withLock { ($0.checkpoints, $0.lastResult) }
    }

    /// Waits for a running checkpoint, then closes the connection; nothing runs after.
    func close() async throws {
        await withCheckedContinuation { continuation in
            state.withLock { state in
                state.isClosed = true
                if state.isRunning { state.idleWaiters.append(continuation) } else { continuation.resume() }
            }
        }
        try connection.close()
    }

    /// Starts a checkpoint when none runs and `due` says one is due (under the lock).
    private func start(when due: (inout State) -> Bool) {
        let starts = state.withLock { state in
            guard due(&state), !state.isRunning, !state.isClosed else { return false }
            state.isRunning = true
            state.commitsSince = 0
            return true
        }
        if starts { Task { await run() } }
    }

    private func run() async {
        // A failure (the file went away, say) is not the writer's: it is tried again later, and
        // the writer's own threshold bounds the log meanwhile.
        let result = try? await connection.writeWithoutTransaction { db in try db.checkpoint(.passive) }
        let waiters = state.withLock { state in
            state.isRunning = false
            state.checkpoints += 1
            state.lastResult = result
            defer { state.idleWaiters = [] }
            return state.idleWaiters
        }
        waiters.forEach { $0.resume() }
    }
}
