import HTTPTypes
import Synchronization

/// The server's state for one request, from its first access-handler call to completion.
/// Crosses into C as the retained per-request pointer and is released in NOTIFY_COMPLETED.
final class RequestContext: Sendable {
    /// Where the request is in its life.
    enum Phase {
        /// Headers and body are still arriving.
        case collecting
        /// Suspended while `respond(to:)` runs in a task.
        case pending(MHDConnection)
        /// The task's response, to be queued on the next access-handler call.
        case ready(Response)
        /// A response was queued with this status.
        case queued(HTTPResponse.Status)
    }

    private struct State {
        var phase = Phase.collecting
        var headers = HTTPFields()
        var body: [UInt8] = []
        var bodyBytesSeen = 0
        var problem: Problem?
        var task: Task<Void, Never>?
        var logMetadata: [String: String] = [:]
        var route: String?
    }

    let start: ContinuousClock.Instant
    let method: String
    let rawURL: String
    private let maxBodyBytes: Int
    private let state: Mutex<State>

    init(method: String, rawURL: String, maxBodyBytes: Int) {
        start = .now
        self.method = method
        self.rawURL = rawURL
        self.maxBodyBytes = maxBodyBytes
        state = Mutex(State())
    }

    /// Records the request headers and any problem found on the first call.
    func begin(headers: HTTPFields, problem: Problem?) {
        state.withLock {
            $0.headers = headers
            $0.problem = problem
        }
    }

    /// Appends upload data, or counts and discards it once over the limit (then a 413 follows).
    func appendBody(_ bytes: UnsafeRawBufferPointer) {
        state.withLock { state in
            state.bodyBytesSeen += bytes.count
            if state.bodyBytesSeen > maxBodyBytes {
                state.body = []
                if state.problem == nil {
                    state.problem = Problem(
                        status: .contentTooLarge,
                        detail: "The request body is larger than \(maxBodyBytes) bytes."
                    )
                }
            } else if state.problem == nil {
                state.body.append(contentsOf: bytes)
            }
        }
    }

    /// The headers, body and pending problem once the request is fully received.
    func collected() -> (headers: HTTPFields, body: [UInt8], problem: Problem?) {
        state.withLock { state in
            defer { state.body = [] }
            return (state.headers, state.body, state.problem)
        }
    }

    /// Takes the task's response if it is ready to queue.
    func takeReadyResponse() -> Response? {
        state.withLock { state in
            guard case .ready(let response) = state.phase else { return nil }
            return response
        }
    }

    /// Whether a task is running for this request (the connection is suspended).
    var isPending: Bool {
        state.withLock { state in
            if case .pending = state.phase { return true }
            return false
        }
    }

    /// Marks the request as waiting for a task and suspends the connection, under the lock so
    /// that `complete(with:)` cannot resume before the suspend happened.
    func suspend(_ connection: MHDConnection) {
        state.withLock { state in
            state.phase = .pending(connection)
            connection.suspend()
        }
    }

    /// Remembers the task so a forced shutdown can cancel it.
    func setTask(_ task: Task<Void, Never>) {
        state.withLock { state in
            if case .pending = state.phase { state.task = task }
        }
    }

    /// Stores the response and resumes the connection, exactly once per suspend. Returns false
    /// (and ends a streamed body that will never be sent) when the request was already resolved.
    @discardableResult
    func complete(with response: Response, cancelTask: Bool = false) -> Bool {
        let resolved = state.withLock { state -> (MHDConnection, Task<Void, Never>?)? in
            guard case .pending(let connection) = state.phase else { return nil }
            state.phase = .ready(response)
            defer { state.task = nil }
            return (connection, state.task)
        }
        guard let (connection, task) = resolved else {
            if case .stream(let stream) = response.body { stream.terminate() }
            return false
        }
        if cancelTask { task?.cancel() }
        connection.resume()
        return true
    }

    /// Ends a streamed answer that was stored but never queued (the client left first).
    func discardUnsentResponse() {
        let unsent = state.withLock { state -> ResponseStream? in
            guard case .ready(let response) = state.phase, case .stream(let stream) = response.body else { return nil }
            return stream
        }
        unsent?.terminate()
    }

    /// Records that a response with `status` was queued.
    func markQueued(_ response: Response) {
        state.withLock { state in
            state.phase = .queued(response.status)
            state.logMetadata = response.logMetadata
            state.route = response.route
        }
    }

    /// The queued status, the response's log metadata and its route (`Response.route`, else
    /// the metadata's `http.route`), if a response was queued.
    func outcome() -> (status: HTTPResponse.Status, metadata: [String: String], route: String?)? {
        state.withLock { state in
            guard case .queued(let status) = state.phase else { return nil }
            let route = state.route ?? (state.logMetadata.isEmpty ? nil : state.logMetadata["http.route"])
            return (status, state.logMetadata, route)
        }
    }
}
