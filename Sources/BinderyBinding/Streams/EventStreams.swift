import BinderyHTTP
import BinderyRuntime
import Synchronization

/// The open Server-Sent Event streams: admission within limits, framing, heartbeats.
///
/// Heartbeats are spread over the interval: each stream gets a slot when admitted (round robin
/// over ``heartbeatSlots``), and every `heartbeat / heartbeatSlots` one slot's streams get theirs.
/// Each stream still gets one per interval, but a round never holds the event loops for all of
/// them at once (100,000 streams at ~14 µs each made a 1.4 s burst every 15 s).
package final class EventStreams: Sendable {
    private struct Open {
        var streams: [ObjectIdentifier: (stream: ResponseStream, session: String, slot: Int)] = [:]
        var perSession: [String: Int] = [:]
        /// The streams of each heartbeat slot.
        var slots: [Set<ObjectIdentifier>]
        var admitted = 0

        init(slots: Int) {
            self.slots = Array(repeating: [], count: slots)
        }

        /// Releases the streams (of `session`, or all) whose clients have left, so a reloaded
        /// page's new stream takes the place of the one its old page closed at once, not at the
        /// next heartbeat.
        mutating func releaseDeparted(of session: String?) {
            for (id, open) in streams where session == nil || open.session == session {
                if open.stream.endIfClientLeft() { release(id, session: open.session) }
            }
        }

        mutating func release(_ id: ObjectIdentifier, session: String) {
            guard let removed = streams.removeValue(forKey: id) else { return }
            slots[removed.slot].remove(id)
            perSession[session, default: 1] -= 1
            if perSession[session] == 0 { perSession[session] = nil }
        }
    }

    private let open: Mutex<Open>
    private let limits: StreamLimits
    /// How many slots the heartbeat interval is cut into: one a second (15 for 15 s). Slots of
    /// 250 ms cost twice the CPU for 10,000 idle streams (1.9 against 1.0 % of a core): each small
    /// batch woke the event loops, and on loopback the clients, anew.
    package let heartbeatSlots: Int

    /// Creates an empty set of streams with these limits.
    package init(limits: StreamLimits) {
        self.limits = limits
        heartbeatSlots = max(1, Int(limits.heartbeat / .seconds(1)))
        open = Mutex(Open(slots: heartbeatSlots))
    }

    /// The number of open streams.
    package var count: Int { open.withLock { $0.streams.count } }

    /// Admits a new stream for `session`, or refuses it with a 429 / 503 problem.
    func admit(_ stream: ResponseStream, session: String) throws(Problem) {
        let refusal = open.withLock { open -> Problem? in
            if open.streams.count >= limits.total { open.releaseDeparted(of: nil) }
            if open.perSession[session, default: 0] >= limits.perSession { open.releaseDeparted(of: session) }
            if open.streams.count >= limits.total {
                return Problem(
                    status: .serviceUnavailable, title: "Too many event streams",
                    detail: "The server holds \(limits.total) event streams; try again later or use long-polling.",
                    headers: [.retryAfter: "5"]
                )
            }
            if open.perSession[session, default: 0] >= limits.perSession {
                return Problem(
                    status: .tooManyRequests, title: "Too many event streams",
                    detail: "This session already has \(limits.perSession) open event streams; close one first."
                )
            }
            let slot = open.admitted % open.slots.count
            open.admitted &+= 1
            open.streams[ObjectIdentifier(stream)] = (stream, session, slot)
            open.slots[slot].insert(ObjectIdentifier(stream))
            open.perSession[session, default: 0] += 1
            return nil
        }
        if let refusal { throw refusal }
        stream.onTermination { [weak self] in
            self?.release(stream, session: session)
        }
    }

    /// Gives back the place of a stream that was admitted but will never be sent.
    func withdraw(_ stream: ResponseStream, session: String) {
        release(stream, session: session)
    }

    /// Sends a heartbeat comment on the open streams of heartbeat slot `slot`, streams that sent
    /// an event meanwhile included: skipping those once left a client that closed just after its
    /// first event connected for another interval, as only a write reveals a close the peek came
    /// too early for. An idle stream whose client has left (closed or reset its connection) is
    /// ended instead of written to, so it is freed at the first heartbeat after the client left.
    package func beat(slot: Int) {
        let streams = open.withLock { open in open.slots[slot].compactMap { open.streams[$0]?.stream } }
        streams.forEach { $0.keepAlive(Self.heartbeatFrame) }
    }

    /// Sends heartbeats until the task is cancelled: one slot's streams every
    /// `heartbeat / heartbeatSlots`, sleeping on `clock` in between, so each stream gets one per
    /// `heartbeat`.
    package func runHeartbeats(clock: any Clock<Duration> = ContinuousClock()) async {
        let tick = limits.heartbeat / heartbeatSlots
        var slot = 0
        while !Task.isCancelled {
            do { try await clock.sleep(for: tick) } catch { return }
            beat(slot: slot)
            slot = (slot + 1) % heartbeatSlots
        }
    }

    /// An SSE frame carrying a snapshot: `id:` is its version.
    static func frame(_ snapshot: EncodedSnapshot) -> [UInt8] {
        var bytes = Array("id: \(snapshot.version)\ndata: ".utf8)
        bytes.reserveCapacity(bytes.count + snapshot.bytes.count + 2)
        bytes.append(contentsOf: snapshot.bytes)
        bytes.append(contentsOf: [10, 10])
        return bytes
    }

    /// One version as a JSON Patch event: `event: patch`, `id: <version>`, the RFC 6902 patch
    /// from the version the stream sent before (its first operation tests that version).
    static func patchFrame(version: Int, patch: [UInt8]) -> [UInt8] {
        var bytes = Array("event: patch\nid: \(version)\ndata: ".utf8)
        bytes.reserveCapacity(bytes.count + patch.count + 2)
        bytes.append(contentsOf: patch)
        bytes.append(contentsOf: [10, 10])
        return bytes
    }

    /// The edits of collaborative texts that the next version shows: `event: edits` with no id
    /// (a resumed stream does not replay it; the client reloads the texts it edits).
    static func editsFrame(_ edits: [UInt8]) -> [UInt8] {
        var bytes = Array("event: edits\ndata: ".utf8)
        bytes.append(contentsOf: edits)
        bytes.append(contentsOf: [10, 10])
        return bytes
    }

    /// Who else is on the screen: `event: presence` with no id (a resumed stream gets the current
    /// list instead).
    static func presenceFrame(_ payload: [UInt8]) -> [UInt8] {
        Array("event: presence\ndata: ".utf8) + payload + [10, 10]
    }

    /// An event of a stream of several views (`GET /api/events`): `event: <event>`, the stream's
    /// resume point as `id:` when there is one, and `{"view": <path>, "<member>": <payload>}`.
    static func envelopeFrame(event: String, id: String?, view: String, member: String, payload: [UInt8]) -> [UInt8] {
        var bytes = Array("event: \(event)\n".utf8)
        if let id { bytes += Array("id: \(id)\n".utf8) }
        bytes += Array("data: {\"view\":".utf8)
        bytes += JSONWriter.bytes(of: .string(view))
        bytes += Array(",\"\(member)\":".utf8)
        bytes.reserveCapacity(bytes.count + payload.count + 3)
        bytes += payload
        bytes += [UInt8(ascii: "}"), 10, 10]
        return bytes
    }

    /// Which client the server serves (``ClientVersion``): `event: client` with no id and
    /// `{"fingerprint": <fingerprint>}`, first thing on a stream of several views and again when
    /// it changes (a page made from other files reloads: js/deploy.js).
    static func clientFrame(_ fingerprint: String) -> [UInt8] {
        Array("event: client\ndata: {\"fingerprint\":".utf8) + JSONWriter.bytes(of: .string(fingerprint)) + [UInt8(ascii: "}"), 10, 10]
    }

    /// The first bytes of every stream: the client's reconnection delay.
    static let preamble = Array("retry: 2000\n\n".utf8)

    /// An SSE comment that keeps idle connections (and proxies' read timeouts) alive.
    static let heartbeatFrame = Array(": heartbeat\n\n".utf8)

    private func release(_ stream: ResponseStream, session: String) {
        open.withLock { $0.release(ObjectIdentifier(stream), session: session) }
    }
}
