@testable import BinderyHTTP
import BinderyTestSupport
import Glibc
import Testing

/// The deadline for a complete request head (slowloris): libmicrohttpd's inactivity timeout
/// never fires for a client that trickles a header line now and then.
@Suite("Request head deadline")
struct HeadDeadlineTests {
    /// A connected pair of sockets: the deadline shuts down `server`; `client` sees it.
    final class SocketPair {
        let server: Int32
        let client: Int32

        init() {
            var fds: [Int32] = [-1, -1]
            _ = socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &fds)
            server = fds[0]
            client = fds[1]
        }

        /// Whether the client end reads end-of-stream now (the server end was shut down).
        var clientSeesEnd: Bool {
            var byte: UInt8 = 0
            return recv(client, &byte, 1, Int32(MSG_DONTWAIT)) == 0
        }

        deinit {
            close(server)
            close(client)
        }
    }

    let start = ContinuousClock.now

    @Test("A head not complete by its deadline: the socket is shut down, once")
    func overdueHeadIsShutDown() {
        let pair = SocketPair()
        let deadlines = HeadDeadlines(limit: .seconds(30))
        deadlines.opened(1, socket: pair.server, address: "10.0.0.1", now: start)
        #expect(deadlines.expire(now: start + .seconds(29)) == 0)
        #expect(!pair.clientSeesEnd)
        #expect(deadlines.expire(now: start + .seconds(30)) == 1)
        #expect(pair.clientSeesEnd)
        #expect(deadlines.expire(now: start + .seconds(60)) == 0, "shut down once")
        #expect(deadlines.expiredCount == 1)
    }

    @Test("No deadline while a request is handled; the next head is due from the answer")
    func keepAliveWaitCountsFromTheAnswer() {
        let pair = SocketPair()
        let deadlines = HeadDeadlines(limit: .seconds(30))
        deadlines.opened(1, socket: pair.server, address: "10.0.0.1", now: start)
        deadlines.headArrived(1)
        #expect(deadlines.expire(now: start + .seconds(600)) == 0, "a long request (a stream) is not cut")
        deadlines.requestEnded(1, now: start + .seconds(600))
        #expect(deadlines.expire(now: start + .seconds(629)) == 0)
        #expect(!pair.clientSeesEnd)
        #expect(deadlines.expire(now: start + .seconds(630)) == 1)
        #expect(pair.clientSeesEnd)
    }

    @Test("A closed connection is forgotten: its descriptor, maybe reused, is never shut down")
    func closedConnectionIsForgotten() {
        let pair = SocketPair()
        let deadlines = HeadDeadlines(limit: .seconds(30))
        deadlines.opened(1, socket: pair.server, address: "10.0.0.1", now: start)
        deadlines.closed(1)
        #expect(deadlines.trackedCount == 0)
        #expect(deadlines.expire(now: start + .seconds(60)) == 0)
        #expect(!pair.clientSeesEnd)
    }

    @Test("When full, the connection waiting longest from the address with the most waiting yields")
    func reclaimTakesTheBusiestAddressesOldest() {
        let quiet = SocketPair(), floodOld = SocketPair(), floodNew = SocketPair(), working = SocketPair()
        let deadlines = HeadDeadlines(limit: .seconds(30))
        deadlines.opened(1, socket: quiet.server, address: "10.0.0.1", now: start)
        deadlines.opened(2, socket: floodOld.server, address: "10.0.0.2", now: start + .seconds(1))
        deadlines.opened(3, socket: floodNew.server, address: "10.0.0.2", now: start + .seconds(2))
        deadlines.opened(4, socket: working.server, address: "10.0.0.2", now: start)
        deadlines.headArrived(4)
        #expect(deadlines.reclaimIdleConnection())
        #expect(floodOld.clientSeesEnd, "the flooding address's oldest idle connection")
        #expect(!quiet.clientSeesEnd)
        #expect(!floodNew.clientSeesEnd)
        #expect(!working.clientSeesEnd, "a connection with a request in progress never yields")
        #expect(deadlines.reclaimIdleConnection())
        #expect(deadlines.reclaimIdleConnection())
        #expect(quiet.clientSeesEnd && floodNew.clientSeesEnd)
        #expect(!deadlines.reclaimIdleConnection(), "nothing idle is left")
        #expect(deadlines.reclaimedCount == 3)
    }

    @Test("At the per-address cap, that address's connection waiting longest yields to a newcomer")
    func perAddressCapTakesThatAddressesOldest() {
        let other = SocketPair(), old = SocketPair(), busy = SocketPair(), newer = SocketPair(), newest = SocketPair()
        let deadlines = HeadDeadlines(limit: .seconds(30), perAddressLimit: 2)
        deadlines.opened(1, socket: other.server, address: "10.0.0.9", now: start)
        deadlines.opened(2, socket: old.server, address: "10.0.0.1", now: start + .seconds(1))
        deadlines.opened(3, socket: busy.server, address: "10.0.0.1", now: start)
        deadlines.headArrived(3)
        deadlines.opened(4, socket: newer.server, address: "10.0.0.1", now: start + .seconds(2))
        #expect(old.clientSeesEnd, "its address's connection waiting longest yielded")
        #expect(!other.clientSeesEnd, "never another address's")
        #expect(!busy.clientSeesEnd && !newer.clientSeesEnd)
        deadlines.closed(2)
        deadlines.headArrived(4)
        // Every connection of the address is busy: the newcomer is the one that goes.
        deadlines.opened(5, socket: newest.server, address: "10.0.0.1", now: start + .seconds(3))
        #expect(newest.clientSeesEnd)
        #expect(!busy.clientSeesEnd && !newer.clientSeesEnd)
        #expect(deadlines.reclaimedCount == 1)
    }

    @Test("A limit of zero tracks nothing")
    func zeroLimitTracksNothing() {
        let pair = SocketPair()
        let deadlines = HeadDeadlines(limit: .zero)
        deadlines.opened(1, socket: pair.server, address: "10.0.0.1", now: start)
        #expect(deadlines.trackedCount == 0)
        #expect(deadlines.expire(now: start + .seconds(3600)) == 0)
    }

    // MARK: - A real server

    /// Sends one header line every 300 ms for about 1.5 s, well inside the 30-second inactivity
    /// timeout; true when the server closed the connection meanwhile or soon after.
    private func trickle(_ client: RawHTTPClient, lines: Int = 5) async throws -> Bool {
        for index in 0..<lines {
            do {
                try await client.send("X-Trickle-\(index): 1\r\n")
            } catch {
                return true
            }
            try await Task.sleep(for: .milliseconds(300))
        }
        return try await client.waitForClose()
    }

    @Test("A client trickling its head is cut off at the deadline; a prompt one is answered")
    func slowHeadIsCutOff() async throws {
        let configuration = ServerConfiguration(port: 0, requestHeadTimeoutSeconds: 1)
        try await withServer(testRouter(), configuration: configuration) { server in
            let slow = try RawHTTPClient(port: server.port, timeout: .seconds(5))
            try await slow.send("GET /fast HTTP/1.1\r\nHost: x\r\n")
            #expect(try await trickle(slow), "closed while trickling, long before the inactivity timeout")
            #expect(server.overdueHeadClosures == 1)
            let prompt = try RawHTTPClient(port: server.port)
            #expect(try await prompt.request("GET", "/fast").status == 200)
        }
    }

    @Test("An idle keep-alive connection is closed a deadline after its last answer")
    func idleKeepAliveIsClosed() async throws {
        let configuration = ServerConfiguration(port: 0, requestHeadTimeoutSeconds: 1)
        try await withServer(testRouter(), configuration: configuration) { server in
            // 1 s deadline, swept each second: 15 s is only a bound for a machine busy with the
            // parallel suites (5 s once ran out there); the inactivity timeout is far longer.
            let client = try RawHTTPClient(port: server.port, timeout: .seconds(15))
            #expect(try await client.request("GET", "/fast").status == 200)
            #expect(try await client.request("GET", "/async").status == 200, "the connection is reused")
            #expect(try await client.waitForClose())
            #expect(server.overdueHeadClosures == 1)
        }
    }

    @Test("Without a deadline a trickling client stays connected")
    func noDeadline() async throws {
        let configuration = ServerConfiguration(port: 0, requestHeadTimeoutSeconds: 0)
        try await withServer(testRouter(), configuration: configuration) { server in
            let slow = try RawHTTPClient(port: server.port, timeout: .seconds(1))
            try await slow.send("GET /fast HTTP/1.1\r\nHost: x\r\n")
            #expect(try await !trickle(slow, lines: 3))
            try await slow.send("\r\n")
            #expect(try await slow.readResponse().status == 200)
        }
    }
}
