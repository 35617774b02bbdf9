import Synchronization

/// A response body written over time, for Server-Sent Events and other pushes.
///
/// `write(_:)` queues bytes and wakes the connection; `finish()` ends the body once queued
/// bytes are sent. While nothing is queued the connection is suspended in libmicrohttpd, so an
/// idle stream costs no CPU. A suspended connection does not notice a client that went away:
/// call `keepAlive(_:)` with a heartbeat (an SSE comment such as `": ping\n\n"`) now and then;
/// it ends the stream of a client that closed its connection, and a client that vanished
/// without closing is detected when a write fails. A stream is the body of one response
/// only; sending it twice closes the second connection.
public final class ResponseStream: Sendable {
    private struct State {
        var pending: [UInt8] = []
        var readOffset = 0
        var finished = false
        var terminated = false
        /// A heartbeat found the client gone; the reader closes the connection without a last chunk.
        var clientLeft = false
        var attached = false
        /// The connection while it is suspended waiting for bytes; taken by exactly one resume.
        var suspendedConnection: MHDConnection?
        var terminationHandlers: [@Sendable () -> Void] = []

        mutating func takeSuspendedConnection() -> MHDConnection? {
            defer { suspendedConnection = nil }
            return suspendedConnection
        }
    }

    private let state = Mutex(State())

    /// Creates an empty, open stream; return it in a `Response` body to start sending.
    public init() {}

    /// Queues bytes to send and wakes the connection. Ignored once finished or terminated.
    public func write(_ bytes: [UInt8]) {
        let connection = state.withLock { state -> MHDConnection? in
            guard !state.finished, !state.terminated else { return nil }
            state.pending.append(contentsOf: bytes)
            return state.takeSuspendedConnection()
        }
        connection?.resume()
    }

    /// Queues a keep-alive write such as an SSE heartbeat comment, or, when the stream is idle and
    /// its client has left (closed its socket or reset it), ends the stream instead: the closed
    /// connection is noticed at this call, without a write to reveal it. Ignored once finished or
    /// terminated. A client that vanished without closing (a dead network) is still noticed only
    /// when a write fails.
    public func keepAlive(_ bytes: [UInt8]) {
        let connection = state.withLock { state -> MHDConnection? in
            guard !state.finished, !state.terminated else { return nil }
            if let idle = state.suspendedConnection, idle.clientHasLeft {
                state.clientLeft = true
            } else {
                state.pending.append(contentsOf: bytes)
            }
            return state.takeSuspendedConnection()
        }
        connection?.resume()
    }

    /// Ends the stream when it is idle and its client has left (closed or reset its socket), as a
    /// heartbeat would, without writing anything otherwise; answers whether it ended it.
    public func endIfClientLeft() -> Bool {
        let connection = state.withLock { state -> MHDConnection? in
            guard !state.finished, !state.terminated, let idle = state.suspendedConnection, idle.clientHasLeft else { return nil }
            state.clientLeft = true
            return state.takeSuspendedConnection()
        }
        connection?.resume()
        return connection != nil
    }

    /// How many queued bytes are not sent yet.
    package var unsentByteCount: Int { state.withLock { $0.pending.count - $0.readOffset } }

    /// Queues UTF-8 text to send.
    public func write(_ text: String) {
        write(Array(text.utf8))
    }

    /// Ends the body after the queued bytes are sent. Idempotent.
    public func finish() {
        let connection = state.withLock { state -> MHDConnection? in
            guard !state.finished, !state.terminated else { return nil }
            state.finished = true
            return state.takeSuspendedConnection()
        }
        connection?.resume()
    }

    /// Registers `handler` to run exactly once when the stream ends for any reason (finished
    /// and sent, client gone, server shutdown). Runs at once if the stream already ended.
    public func onTermination(_ handler: @escaping @Sendable () -> Void) {
        let alreadyTerminated = state.withLock { state -> Bool in
            if state.terminated { return true }
            state.terminationHandlers.append(handler)
            return false
        }
        if alreadyTerminated { handler() }
    }

    /// Whether the stream has ended; writes are then ignored.
    public var isTerminated: Bool {
        state.withLock { $0.terminated }
    }

    /// Whether `finish()` was called or the stream ended.
    public var isFinished: Bool {
        state.withLock { $0.finished || $0.terminated }
    }

    // MARK: - Server side

    /// Whether the connection is suspended waiting for bytes (nothing queued, not ended).
    var isIdle: Bool {
        state.withLock { $0.suspendedConnection != nil }
    }

    /// Marks the stream as sent on a connection; false when it already was (a stream is one body).
    func attach() -> Bool {
        state.withLock { state in
            guard !state.attached, !state.terminated else { return false }
            state.attached = true
            return true
        }
    }

    /// Result of asking the stream for bytes on the network thread.
    enum ReadResult {
        case bytes(Int)
        case suspended
        case endOfStream
        /// The client left: close the connection without ending the body.
        case clientLeft
    }

    /// Copies queued bytes into `buffer`; when none are queued and the stream is open, suspends
    /// `connection` (under the lock, so a concurrent write resumes it exactly once).
    func read(into buffer: UnsafeMutableRawBufferPointer, suspending connection: MHDConnection) -> ReadResult {
        state.withLock { state in
            if state.terminated { return .endOfStream }
            if state.clientLeft { return .clientLeft }
            let available = state.pending.count - state.readOffset
            if available > 0 {
                let count = min(available, buffer.count)
                state.pending.withUnsafeBytes { source in
                    buffer.copyMemory(from: UnsafeRawBufferPointer(rebasing: source[state.readOffset..<state.readOffset + count]))
                }
                state.readOffset += count
                if state.readOffset == state.pending.count {
                    state.pending.removeAll(keepingCapacity: true)
                    state.readOffset = 0
                }
                return .bytes(count)
            }
            if state.finished { return .endOfStream }
            state.suspendedConnection = connection
            connection.suspend()
            return .suspended
        }
    }

    /// Ends the stream (the response was released, or never sent) and runs the handlers once.
    func terminate() {
        let handlers = state.withLock { state -> [@Sendable () -> Void] in
            guard !state.terminated else { return [] }
            state.terminated = true
            state.suspendedConnection = nil
            state.pending = []
            defer { state.terminationHandlers = [] }
            return state.terminationHandlers
        }
        for handler in handlers { handler() }
    }
}
