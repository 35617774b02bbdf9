import BinderyHTTP
import BinderyRuntime
import Synchronization

/// The open Server-Sent Event streams: admission within limits, framing, heartbeats.
package final class EventStreams: Sendable {
    private struct Open {
        var streams: [ObjectIdentifier: (stream: ResponseStream, session: String)] = [:]
        var perSession: [String: Int] = [:]

        /// Releases the streams (of `session`, or all) whose clients have left, so a reloaded
        /// page's new stream takes the place of the one its old page closed at once, not at the
        /// next heartbeat.
        mutating func releaseDeparted(of session: String?) {
            for (id, open) in streams where session == nil || open.session == session {
                if open.stream.endIfClientLeft() { release(id, session: open.session) }
            }
        }

        mutating func release(_ id: ObjectIdentifier, session: String) {
            guard streams.removeValue(forKey: id) != nil else { return }
            perSession[session, default: 1] -= 1
            if perSession[session] == 0 { perSession[session] = nil }
        }
    }

    private let open = Mutex(Open())
    private let limits: StreamLimits

    /// Creates an empty set of streams with these limits.
    package init(limits: StreamLimits) {
        self.limits = limits
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
            open.streams[ObjectIdentifier(stream)] = (stream, session)
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

    /// Sends a heartbeat comment on every open stream; run it every `limits.heartbeat`. An idle
    /// stream whose client has left (closed or reset its connection) is ended instead of written
    /// to, so it is freed at the first heartbeat after the client left.
    package func beat() {
        let streams = open.withLock { $0.streams.values.map(\.stream) }
        streams.forEach { $0.keepAlive(Self.heartbeatFrame) }
    }

    /// Sends heartbeats until the task is cancelled, sleeping on `clock` in between.
    package func runHeartbeats(clock: any Clock<Duration> = ContinuousClock()) async {
        while !Task.isCancelled {
            do { try await clock.sleep(for: limits.heartbeat) } catch { return }
            beat()
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

    /// The first bytes of every stream: the client's reconnection delay.
    static let preamble = Array("retry: 2000\n\n".utf8)

    /// An SSE comment that keeps idle connections (and proxies' read timeouts) alive.
    static let heartbeatFrame = Array(": heartbeat\n\n".utf8)

    private func release(_ stream: ResponseStream, session: String) {
        open.withLock { $0.release(ObjectIdentifier(stream), session: session) }
    }
}
