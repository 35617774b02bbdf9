import Foundation
import Logging
import Synchronization

/// An HTTP/1.1 server on libmicrohttpd: `workers` single-threaded epoll daemons share one port.
///
/// Each request is first offered to the responder's `respondImmediately(to:)` on the network
/// thread; otherwise the connection is suspended while `respond(to:)` runs in a task, and the
/// answer is queued from the network thread once the connection is resumed. Request rules:
/// bodies over `maxBodyBytes` get 413, a repeated Content-Length 400, and (with
/// `requireJSONBodies`) a POST/PUT/PATCH body that is not JSON gets 415, all before routing.
/// Call `shutdown()` before releasing a started server.
package final class HTTPServer: Sendable {
    private enum Lifecycle {
        case idle
        case running([MHDDaemon], port: Int)
        case stopping(port: Int)
        case stopped(port: Int)
    }

    private let configuration: ServerConfiguration
    private let dispatcher: RequestDispatcher
    private let logger: Logger
    private let lifecycle = Mutex(Lifecycle.idle)
    private let deadlineSweep = Mutex<Task<Void, Never>?>(nil)

    /// Creates a server; nothing listens until `start()`.
    ///
    /// `observer` hears of every completed request (for metrics), on a server thread.
    package init(
        configuration: ServerConfiguration = ServerConfiguration(),
        responder: some HTTPResponder,
        logger: Logger,
        observer: (@Sendable (CompletedRequest) -> Void)? = nil
    ) {
        self.configuration = configuration
        self.logger = logger
        dispatcher = RequestDispatcher(
            configuration: configuration, responder: responder, logger: logger, observer: observer
        )
    }

    /// Binds and starts the workers. Throws `HTTPServerError` when the address cannot be used.
    package func start() throws {
        try lifecycle.withLock { lifecycle throws(HTTPServerError) in
            guard case .idle = lifecycle else { throw .alreadyStarted }
            let daemons = try startDaemons()
            let port = daemons[0].port
            lifecycle = .running(daemons, port: port)
            startDeadlineSweep()
            logger.info(
                "listening",
                metadata: [
                    "http.host": "\(configuration.host)", "http.port": "\(port)",
                    "http.workers": "\(daemons.count)",
                ])
        }
    }

    private func startDaemons() throws(HTTPServerError) -> [MHDDaemon] {
        let workers = configuration.workers
        guard workers >= 1 else { throw .invalidConfiguration("workers must be at least 1") }
        guard (0...65535).contains(configuration.port) else {
            throw .invalidConfiguration("port must be in 0...65535")
        }
        guard configuration.maxBodyBytes >= 0, configuration.connectionMemoryLimit > 0 else {
            throw .invalidConfiguration("limits must not be negative")
        }
        // libmicrohttpd's limits are per daemon, and the kernel does not share connections out
        // evenly: each worker may take the whole total, and the dispatcher handles requests
        // beyond it (counted over all workers): an idle connection yields, else a 503, so a full
        // server refuses instead of leaving connections waiting. The headroom is what lets those
        // requests be read.
        let connectionLimit = configuration.connectionLimit + max(16, configuration.connectionLimit / 8)
        // With head deadlines tracked, the dispatcher keeps each address within its limit over all
        // workers, making an idle connection of that address yield to the newcomer; libmicrohttpd
        // only stops an address beyond it by the headroom that lets the yielded connections
        // close. Without, libmicrohttpd refuses the newcomer.
        let perIPLimit =
            dispatcher.headDeadlines.perAddressLimit.map { $0 + max(16, $0 / 8) }
            ?? (configuration.perIPConnectionLimit + workers - 1) / workers
        var daemons: [MHDDaemon] = []
        var port = configuration.port
        do {
            for _ in 0..<workers {
                let daemon = try MHDDaemon(
                    host: configuration.host, port: port, reuseAddress: workers > 1,
                    connectionLimit: connectionLimit, perIPConnectionLimit: perIPLimit,
                    dispatcher: dispatcher
                )
                daemons.append(daemon)
                port = daemon.port
            }
        } catch {
            for daemon in daemons { daemon.stop() }
            throw error
        }
        return daemons
    }

    /// Once a second, shuts down the connections whose request head is overdue.
    private func startDeadlineSweep() {
        let deadlines = dispatcher.headDeadlines
        guard deadlines.limit != nil else { return }
        let logger = logger
        deadlineSweep.withLock { sweep in
            sweep = Task {
                while !Task.isCancelled {
                    do { try await Task.sleep(for: .seconds(1)) } catch { return }
                    let closed = deadlines.expire(now: .now)
                    if closed > 0 {
                        logger.notice(
                            "closed connections whose request head was overdue",
                            metadata: [
                                "http.connections": "\(closed)"
                            ])
                    }
                }
            }
        }
    }

    /// Connections closed because their request head did not arrive in time, since the start.
    package var overdueHeadClosures: Int { dispatcher.headDeadlines.expiredCount }

    /// Idle connections closed to serve a request while the server was full, since the start.
    package var reclaimedIdleConnections: Int { dispatcher.headDeadlines.reclaimedCount }

    /// The bound port (useful with port 0); the configured port before `start()`.
    package var port: Int {
        lifecycle.withLock { lifecycle in
            switch lifecycle {
            case .idle: return configuration.port
            case .running(_, let port), .stopping(let port), .stopped(let port): return port
            }
        }
    }

    /// Stops accepting, finishes every open stream, waits up to two seconds for running
    /// handlers (then answers them 503), resumes every suspended connection and stops.
    package func shutdown() async {
        let taken = lifecycle.withLock { lifecycle -> [MHDDaemon]? in
            guard case .running(let daemons, let port) = lifecycle else { return nil }
            lifecycle = .stopping(port: port)
            return daemons
        }
        guard let daemons = taken else { return }
        deadlineSweep.withLock { $0?.cancel() }
        for daemon in daemons { daemon.quiesce() }
        for stream in dispatcher.beginShutdown() { stream.finish() }
        await waitForInFlightWork(upTo: .seconds(2))
        // Whatever is still running is answered 503; let those answers go out before stopping.
        dispatcher.resolvePendingForShutdown()
        await waitForInFlightWork(upTo: .seconds(1))
        await Self.stop(daemons)
        lifecycle.withLock { lifecycle in
            if case .stopping(let port) = lifecycle { lifecycle = .stopped(port: port) }
        }
        logger.info("stopped", metadata: ["http.port": "\(port)"])
    }

    /// Stops the daemons on a thread of their own: `MHD_stop_daemon` blocks while it joins the
    /// daemon's threads, and a blocked thread of Swift's cooperative pool (two on two cores) would
    /// stall every task of the process meanwhile.
    private static func stop(_ daemons: [MHDDaemon]) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let thread = Thread {
                for daemon in daemons { daemon.stop() }
                continuation.resume()
            }
            thread.name = "bindery.http.stop"
            thread.start()
        }
    }

    /// Polls (bounded) until no request is in progress.
    private func waitForInFlightWork(upTo limit: Duration) async {
        let deadline = ContinuousClock.now.advanced(by: limit)
        while dispatcher.hasInFlightWork, ContinuousClock.now < deadline {
            try? await Task.sleep(for: .milliseconds(5))
        }
    }
}
