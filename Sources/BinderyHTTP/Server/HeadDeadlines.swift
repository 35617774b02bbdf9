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
/// connection yields to a request (``reclaimIdleConnection()``), and at the per-address cap a new
/// connection from that address makes that address's longest-waiting idle one yield (in
/// ``opened(_:socket:address:now:)``), so everyone behind one NAT or proxy stays served while a
/// flood from the same address holds the cap.
final class HeadDeadlines: Sendable {
    private struct Connection {
        let socket: Int32
        /// The client's address, for choosing whose idle connection yields when the server is full.
        let address: String
    }

    private struct State {
        var connections: [Int: Connection] = [:]
        /// When each connection waiting for a request head must have it. A connection whose
        /// request is being handled (an event stream, for as long as it is open) is not here, so
        /// the sweep over 10,000 idle streams looks at none of them.
        var deadlines: [Int: ContinuousClock.Instant] = [:]
        /// Open connections by client address.
        var perAddress: [String: Int] = [:]
    }

    /// How long a connection may take to deliver a complete head; nil: no deadline.
    let limit: Duration?
    /// Open connections allowed per client address over all workers; nil: libmicrohttpd's own
    /// limit applies (it refuses the newcomer instead).
    let perAddressLimit: Int?
    private let state = Mutex(State())
    private let expiredTotal = Atomic<Int>(0)
    private let reclaimedTotal = Atomic<Int>(0)

    /// Tracks connections under `limit`; nil (or a limit that is not positive) tracks nothing.
    /// With `perAddressLimit`, also keeps each address within it.
    init(limit: Duration?, perAddressLimit: Int? = nil) {
        self.limit = limit.flatMap { $0 > .zero ? $0 : nil }
        self.perAddressLimit = self.limit == nil ? nil : perAddressLimit.map { max(1, $0) }
    }

    /// A connection from `address` opened on `socket`: its first head is due `limit` from `now`.
    ///
    /// One over the address's limit: the address's connection waiting longest for a head yields
    /// (its socket is shut down); when none of its connections is waiting (all are busy with
    /// requests or streams), the new one is shut down instead, as libmicrohttpd would refuse it.
    func opened(_ key: Int, socket: Int32, address: @autoclosure () -> String?, now: ContinuousClock.Instant) {
        guard let limit, socket >= 0 else { return }
        let connection = Connection(socket: socket, address: address() ?? "")
        state.withLock { state in
            state.connections[key] = connection
            state.deadlines[key] = now + limit
            guard let perAddressLimit, !connection.address.isEmpty else { return }
            state.perAddress[connection.address, default: 0] += 1
            guard state.perAddress[connection.address, default: 0] > perAddressLimit else { return }
            var oldest: (key: Int, deadline: ContinuousClock.Instant)?
            for (other, deadline) in state.deadlines where other != key && state.connections[other]?.address == connection.address {
                if oldest.map({ deadline < $0.deadline }) ?? true { oldest = (other, deadline) }
            }
            let yielding = oldest?.key ?? key
            state.deadlines[yielding] = nil
            if yielding != key { reclaimedTotal.add(1, ordering: .relaxed) }
            // Under the lock, as in `expire`: the descriptor is still that connection's.
            if let socket = state.connections[yielding]?.socket { _ = shutdown(socket, Int32(SHUT_RDWR)) }
        }
    }

    /// The connection's request head is complete: no deadline while the request is handled.
    func headArrived(_ key: Int) {
        guard limit != nil else { return }
        _ = state.withLock { $0.deadlines.removeValue(forKey: key) }
    }

    /// The connection answered a request; the next head (keep-alive) is due `limit` from `now`.
    func requestEnded(_ key: Int, now: ContinuousClock.Instant) {
        guard let limit else { return }
        state.withLock { state in
            guard state.connections[key] != nil else { return }
            state.deadlines[key] = now + limit
        }
    }

    /// The connection closed (before libmicrohttpd closes its descriptor).
    func closed(_ key: Int) {
        guard limit != nil else { return }
        state.withLock { state in
            state.deadlines[key] = nil
            guard let connection = state.connections.removeValue(forKey: key), perAddressLimit != nil,
                let count = state.perAddress[connection.address]
            else { return }
            state.perAddress[connection.address] = count > 1 ? count - 1 : nil
        }
    }

    /// Shuts down the socket of every connection whose head is overdue at `now`; returns how
    /// many. Each is shut down once; libmicrohttpd then closes it.
    @discardableResult
    func expire(now: ContinuousClock.Instant) -> Int {
        guard limit != nil else { return 0 }
        return state.withLock { state in
            let overdue = state.deadlines.compactMap { key, deadline in deadline <= now ? key : nil }
            for key in overdue {
                state.deadlines[key] = nil
                guard let connection = state.connections[key] else { continue }
                // Counted before the shutdown, so whoever sees the connection close sees it counted.
                expiredTotal.add(1, ordering: .relaxed)
                // Under the lock: `closed` cannot run meanwhile, so the descriptor is still this
                // connection's.
                _ = shutdown(connection.socket, Int32(SHUT_RDWR))
            }
            return overdue.count
        }
    }

    /// When the server holds as many connections as it allows: shuts down one connection that is
    /// waiting for a request head — an idle keep-alive, or an idle or trickling flood — the one
    /// waiting longest from the address with the most such, so a client that sent a request is
    /// served instead of refused. False when every connection is busy with a request.
    func reclaimIdleConnection() -> Bool {
        guard limit != nil else { return false }
        return state.withLock { state -> Bool in
            var waiting: [String: Int] = [:]
            for key in state.deadlines.keys {
                guard let connection = state.connections[key] else { continue }
                waiting[connection.address, default: 0] += 1
            }
            guard let busiest = waiting.max(by: { $0.value < $1.value })?.key else { return false }
            var oldest: (key: Int, deadline: ContinuousClock.Instant)?
            for (key, deadline) in state.deadlines where state.connections[key]?.address == busiest {
                if oldest.map({ deadline < $0.deadline }) ?? true { oldest = (key, deadline) }
            }
            guard let oldest, let connection = state.connections[oldest.key] else { return false }
            state.deadlines[oldest.key] = nil
            reclaimedTotal.add(1, ordering: .relaxed)
            // Under the lock, as in `expire`: the descriptor is still this connection's.
            _ = shutdown(connection.socket, Int32(SHUT_RDWR))
            return true
        }
    }

    /// Connections shut down for an overdue head since the server started.
    var expiredCount: Int { expiredTotal.load(ordering: .relaxed) }

    /// Idle connections shut down to make room for a request while the server was full.
    var reclaimedCount: Int { reclaimedTotal.load(ordering: .relaxed) }

    /// Connections being tracked (open ones, while a deadline applies).
    var trackedCount: Int { state.withLock { $0.connections.count } }
}
