import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The deadline for a complete request head: a connection must deliver one within `limit` of
/// opening, or of the answer to its previous request, however slowly it trickles bytes.
///
/// libmicrohttpd's own timeout counts inactivity only, so a client sending a header line every
/// few seconds would hold its connection for ever (slowloris). A connection past its deadline
/// has its socket shut down — not closed: libmicrohttpd sees the client leave and closes the
/// connection on its own thread, as it does for any client that hangs up. A connection is
/// forgotten when libmicrohttpd reports it closed, before it closes the descriptor, so a
/// descriptor reused by a newer connection is never shut down by mistake.
///
/// Knowing which connections wait for a head also lets a full server make room: an idle
/// connection yields to a request (``reclaimIdleConnection()``).
final class HeadDeadlines: Sendable {
    /// A class, only ever touched under the lock: setting a deadline (twice a request) changes
    /// the object, not the dictionary, which a struct value would be copied out of and back into.
    private final class Connection {
        let socket: Int32
        /// The client's address, for choosing whose idle connection yields when the server is full.
        let address: String
        /// When the head being waited for is due; nil while a request is being handled.
        var deadline: ContinuousClock.Instant?

        init(socket: Int32, address: String, deadline: ContinuousClock.Instant?) {
            self.socket = socket
            self.address = address
            self.deadline = deadline
        }
    }

    /// How long a connection may take to deliver a complete head; nil: no deadline.
    let limit: Duration?
    private let connections = Mutex<[Int: Connection]>([:])
    private let expiredTotal = Atomic<Int>(0)
    private let reclaimedTotal = Atomic<Int>(0)

    /// Tracks connections under `limit`; nil (or a limit that is not positive) tracks nothing.
    init(limit: Duration?) {
        self.limit = limit.flatMap { $0 > .zero ? $0 : nil }
    }

    /// A connection from `address` opened on `socket`: its first head is due `limit` from `now`.
    func opened(_ key: Int, socket: Int32, address: @autoclosure () -> String?, now: ContinuousClock.Instant) {
        guard let limit, socket >= 0 else { return }
        let address = address() ?? ""
        connections.withLock { $0[key] = Connection(socket: socket, address: address, deadline: now + limit) }
    }

    /// The connection's request head is complete: no deadline while the request is handled.
    func headArrived(_ key: Int) {
        guard limit != nil else { return }
        connections.withLock { connections in connections[key].map { $0.deadline = nil } }
    }

    /// The connection answered a request; the next head (keep-alive) is due `limit` from `now`.
    func requestEnded(_ key: Int, now: ContinuousClock.Instant) {
        guard let limit else { return }
        connections.withLock { connections in connections[key].map { $0.deadline = now + limit } }
    }

    /// The connection closed (before libmicrohttpd closes its descriptor).
    func closed(_ key: Int) {
        guard limit != nil else { return }
        _ = connections.withLock { $0.removeValue(forKey: key) }
    }

    /// Shuts down the socket of every connection whose head is overdue at `now`; returns how
    /// many. Each is shut down once; libmicrohttpd then closes it.
    @discardableResult
    func expire(now: ContinuousClock.Instant) -> Int {
        guard limit != nil else { return 0 }
        let count = connections.withLock { connections in
            var count = 0
            for connection in connections.values {
                guard let deadline = connection.deadline, deadline <= now else { continue }
                // Counted before the shutdown, so whoever sees the connection close sees it counted.
                expiredTotal.add(1, ordering: .relaxed)
                // Under the lock: `closed` cannot run meanwhile, so the descriptor is still this
                // connection's.
                _ = shutdown(connection.socket, Int32(SHUT_RDWR))
                connection.deadline = nil
                count += 1
            }
            return count
        }
        return count
    }

    /// When the server holds as many connections as it allows: shuts down one connection that is
    /// waiting for a request head — an idle keep-alive, or an idle or trickling flood — the one
    /// waiting longest from the address with the most such, so a client that sent a request is
    /// served instead of refused. False when every connection is busy with a request.
    func reclaimIdleConnection() -> Bool {
        guard limit != nil else { return false }
        let reclaimed = connections.withLock { connections -> Bool in
            var waiting: [String: Int] = [:]
            for connection in connections.values where connection.deadline != nil {
                waiting[connection.address, default: 0] += 1
            }
            guard let busiest = waiting.max(by: { $0.value < $1.value })?.key else { return false }
            var oldest: (key: Int, deadline: ContinuousClock.Instant)?
            for (key, connection) in connections where connection.address == busiest {
                guard let deadline = connection.deadline else { continue }
                if oldest.map({ deadline < $0.deadline }) ?? true { oldest = (key, deadline) }
            }
            guard let oldest, let connection = connections[oldest.key] else { return false }
            reclaimedTotal.add(1, ordering: .relaxed)
            // Under the lock, as in `expire`: the descriptor is still this connection's.
            _ = shutdown(connection.socket, Int32(SHUT_RDWR))
            connection.deadline = nil
            return true
        }
        return reclaimed
    }

    /// Connections shut down for an overdue head since the server started.
    var expiredCount: Int { expiredTotal.load(ordering: .relaxed) }

    /// Idle connections shut down to make room for a request while the server was full.
    var reclaimedCount: Int { reclaimedTotal.load(ordering: .relaxed) }

    /// Connections being tracked (open ones, while a deadline applies).
    var trackedCount: Int { connections.withLock { $0.count } }
}
