import ServiceLifecycle

/// Background work that loops until its task is cancelled (heartbeats, sweeps, followers) as a
/// service: a graceful shutdown cancels it.
struct LoopService: Service, CustomStringConvertible {
    /// What it does, for the service group's log.
    let name: String
    let work: @Sendable () async -> Void

    init(name: String, work: @escaping @Sendable () async -> Void) {
        self.name = name
        self.work = work
    }

    func run() async throws {
        await cancelWhenGracefulShutdown { await work() }
    }

    var description: String { name }
}
