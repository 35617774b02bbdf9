import ServiceLifecycle

/// The server's background loops (heartbeats, sweeps, probes, followers) as one service: they run
/// side by side until a graceful shutdown cancels them all at once. One service rather than one
/// each, so a shutdown waits for them once, not one after another.
struct LoopService: Service, CustomStringConvertible {
    /// One loop: what it does, for the log, and its work, which runs until cancelled (or returns
    /// early, as a follower does when its feed ends: that ends only itself).
    struct Loop: Sendable {
        let name: String
        let work: @Sendable () async -> Void
    }

    let loops: [Loop]

    func run() async throws {
        let loops = loops
        await cancelWhenGracefulShutdown {
            await withDiscardingTaskGroup { group in
                for loop in loops { group.addTask { await loop.work() } }
            }
        }
    }

    var description: String { "background loops: " + loops.map(\.name).joined(separator: ", ") }
}
