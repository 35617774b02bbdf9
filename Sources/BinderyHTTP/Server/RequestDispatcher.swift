import HTTPTypes
import Logging
import Synchronization

/// The server's policy for each request, called by the libmicrohttpd callbacks: limits and
/// request rules, the fast path, the suspended async path, logging and shutdown bookkeeping.
final class RequestDispatcher: Sendable {
    private struct State {
        var pending: [ObjectIdentifier: RequestContext] = [:]
        var streams: [ObjectIdentifier: ResponseStream] = [:]
        /// Requests between their first access-handler call and NOTIFY_COMPLETED.
        var activeRequests = 0
        var shuttingDown = false
    }

    let configuration: ServerConfiguration
    /// Open connections over all workers.
    private let openConnections = Atomic<Int>(0)
    /// The deadline for each connection's next complete request head.
    let headDeadlines: HeadDeadlines
    private let responder: any HTTPResponder
    private let logger: Logger
    private let observer: (@Sendable (CompletedRequest) -> Void)?
    private let state = Mutex(State())

    init(
        configuration: ServerConfiguration, responder: any HTTPResponder, logger: Logger,
        observer: (@Sendable (CompletedRequest) -> Void)? = nil
    ) {
        self.configuration = configuration
        headDeadlines = HeadDeadlines(
            limit: .seconds(configuration.requestHeadTimeoutSeconds), perAddressLimit: configuration.perIPConnectionLimit
        )
        self.responder = responder
        self.logger = logger
        self.observer = observer
    }

    // MARK: - Access handler steps

    /// First access-handler call (headers complete). Answers only when the request must be
    /// refused before its body is read: a Content-Length over the limit (413), a repeated Host or
    /// none in HTTP/1.1 (400), or framing that cannot be trusted (a repeated Content-Length or one
    /// next to Transfer-Encoding: 400; a transfer coding other than chunked: 501). Refusals close
    /// the connection, so nothing sent after the head (a smuggled request) is ever read as a
    /// request.
    func firstCall(_ context: RequestContext, connection: MHDConnection, isHTTP11: Bool) -> Response? {
        state.withLock { $0.activeRequests += 1 }
        let head = connection.requestHeaders()
        let (headers, contentLengthCount, codings) = (head.fields, head.contentLengthCount, head.transferEncodings)
        var problem: Problem?
        // Full: an idle connection yields to this request if there is one; else 503.
        if openConnections.load(ordering: .relaxed) > configuration.connectionLimit,
            !headDeadlines.reclaimIdleConnection()
        {
            problem = Problem(
                status: .serviceUnavailable, title: "Server busy",
                detail: "The server holds as many connections as it allows; try again in a moment.",
                headers: [.retryAfter: "1"]
            )
        } else if head.hostCount > 1 {
            problem = Problem(status: .badRequest, detail: "The request has more than one Host header.")
        } else if head.hostCount == 0, isHTTP11 {
            problem = Problem(status: .badRequest, detail: "An HTTP/1.1 request must have a Host header.")
        } else if contentLengthCount > 1 {
            problem = Problem(status: .badRequest, detail: "The request has more than one Content-Length header.")
        } else if !codings.isEmpty, contentLengthCount > 0 {
            problem = Problem(
                status: .badRequest, detail: "The request has both Content-Length and Transfer-Encoding headers."
            )
        } else if !codings.isEmpty, !Self.isChunkedOnly(codings) {
            problem = Problem(
                status: .notImplemented, detail: "The only transfer coding accepted is chunked, alone."
            )
        } else if let length = headers.value(.contentLength).flatMap({ Int($0) }), length > configuration.maxBodyBytes {
            problem = Problem(
                status: .contentTooLarge,
                detail: "The request body is larger than \(configuration.maxBodyBytes) bytes."
            )
        }
        context.begin(headers: headers, problem: nil)
        guard let problem else { return nil }
        var response = problem.response
        response.headers[.connection] = "close"
        return response
    }

    /// Whether the Transfer-Encoding field values are exactly one `chunked` (any letter case),
    /// compared as libmicrohttpd compares them: anything it might read differently is refused.
    static func isChunkedOnly(_ values: [String]) -> Bool {
        values.count == 1 && values[0].lowercased() == "chunked"
    }

    /// Counts a connection opening or closing (libmicrohttpd's connection notification).
    func connectionChanged(opened: Bool) {
        openConnections.add(opened ? 1 : -1, ordering: .relaxed)
    }

    /// The open connections over all workers.
    var connectionCount: Int { openConnections.load(ordering: .relaxed) }

    /// A later call with no upload data: the request is complete (or a task's answer is ready).
    /// Returns the response to queue, or nil after suspending the connection for a task.
    func finalCall(_ context: RequestContext, connection: MHDConnection) -> Response? {
        if let ready = context.takeReadyResponse() {
            return tracked(ready)
        }
        if context.isPending {
            return nil
        }
        let (headers, body, problem) = context.collected()
        if let problem {
            return problem.response
        }
        let request: Request
        switch makeRequest(context, headers: headers, body: body, connection: connection) {
        case .success(let made): request = made
        case .failure(let problem): return problem.response
        }
        if state.withLock({ $0.shuttingDown }) {
            return Self.shuttingDownResponse
        }
        if let immediate = responder.respondImmediately(to: request) {
            return tracked(immediate)
        }
        context.suspend(connection)
        guard register(context) else {
            context.complete(with: Self.shuttingDownResponse)
            return nil
        }
        let responder = self.responder
        // Requests are what a person waits for: ask for a high priority so background work
        // (heartbeats, sweeps, a busy session's commands) cannot starve the answer.
        let task = Task(priority: .userInitiated) {
            let response: Response
            do {
                response = try await responder.respond(to: request)
            } catch {
                response = Problem.from(error).response
            }
            context.complete(with: response)
            self.unregister(context)
        }
        context.setTask(task)
        return nil
    }

    private func makeRequest(
        _ context: RequestContext, headers: HTTPFields, body: [UInt8], connection: MHDConnection
    ) -> Result<Request, Problem> {
        guard let method = HTTPRequest.Method(context.method) else {
            return .failure(Problem(status: .badRequest, detail: "The request method is not valid."))
        }
        let rawPath = context.rawURL
        guard rawPath.hasPrefix("/"), let path = PercentDecoding.decode(rawPath), !path.utf8.contains(0) else {
            return .failure(Problem(status: .badRequest, detail: "The request path is not valid."))
        }
        if configuration.requireJSONBodies, !body.isEmpty, [.post, .put, .patch].contains(method),
            !MediaType.isJSON(headers.value(.contentType) ?? "")
        {
            return .failure(
                Problem(
                    status: .unsupportedMediaType,
                    detail: "Request bodies must be JSON (application/json or application/merge-patch+json)."
                ))
        }
        var query: [String: String] = [:]
        for (key, value) in connection.queryArguments() {
            guard let key = PercentDecoding.decode(key), let value = PercentDecoding.decode(value) else {
                return .failure(Problem(status: .badRequest, detail: "The query string is not valid."))
            }
            query[key] = value
        }
        return .success(
            Request(
                method: method, path: path, rawPath: rawPath, query: query, headers: headers,
                body: body, remoteAddress: connection.clientAddress(), receivedAt: context.start
            ))
    }

    /// 503 with `Retry-After`: behind a load balancer the retry reaches another node; alone, the
    /// restarted server.
    private static var shuttingDownResponse: Response {
        var response = Problem(
            status: .serviceUnavailable, title: "Shutting down",
            detail: "The server is shutting down; try again in a moment.", headers: [.retryAfter: "2"]
        ).response
        response.headers[.connection] = "close"
        return response
    }

    // MARK: - Completion and logging

    /// NOTIFY_COMPLETED: one log line per request.
    func completed(_ context: RequestContext, normally: Bool) {
        state.withLock { state in
            state.pending.removeValue(forKey: ObjectIdentifier(context))
            state.activeRequests -= 1
        }
        context.discardUnsentResponse()
        guard let (status, extra, route) = context.outcome() else {
            logger.debug(
                "request ended without response",
                metadata: [
                    "http.method": "\(context.method)", "http.path": "\(context.rawURL)",
                ])
            return
        }
        let elapsed = ContinuousClock.now - context.start
        observer?(
            CompletedRequest(
                method: context.method, route: route ?? "unmatched", status: Int(status.code),
                duration: elapsed
            ))
        // The access log line is built only when it will be written.
        guard logger.logLevel <= .info else { return }
        let milliseconds =
            Double(elapsed.components.seconds) * 1000
            + Double(elapsed.components.attoseconds) / 1e15
        var metadata: Logger.Metadata = [
            "http.method": "\(context.method)",
            "http.path": "\(context.rawURL)",
            "http.status": "\(status.code)",
            "http.duration_ms": "\((milliseconds * 1000).rounded() / 1000)",
        ]
        if !normally { metadata["http.completed"] = "aborted" }
        for (key, value) in extra { metadata[key] = "\(value)" }
        if let route { metadata["http.route"] = "\(route)" }
        logger.info("request", metadata: metadata)
    }

    /// libmicrohttpd's own error log, at `level` (``LibraryMessage`` tells a client's doing apart).
    func libraryLog(_ message: String, level: Logger.Level) {
        logger.log(level: level, "\(message)", metadata: ["http.source": "libmicrohttpd"])
    }

    // MARK: - In-flight bookkeeping

    private func register(_ context: RequestContext) -> Bool {
        state.withLock { state in
            guard !state.shuttingDown else { return false }
            state.pending[ObjectIdentifier(context)] = context
            return true
        }
    }

    private func unregister(_ context: RequestContext) {
        _ = state.withLock { $0.pending.removeValue(forKey: ObjectIdentifier(context)) }
    }

    /// Registers a streamed body so shutdown can end it; once shutting down it is finished at once.
    private func tracked(_ response: Response) -> Response {
        guard case .stream(let stream) = response.body else { return response }
        let key = ObjectIdentifier(stream)
        let open = state.withLock { state -> Bool in
            guard !state.shuttingDown else { return false }
            state.streams[key] = stream
            return true
        }
        if open {
            stream.onTermination { [weak self] in
                _ = self?.state.withLock { $0.streams.removeValue(forKey: key) }
            }
        } else {
            stream.finish()
        }
        return response
    }

    // MARK: - Shutdown

    /// Refuses new work from now on and returns the open streams, to be finished.
    func beginShutdown() -> [ResponseStream] {
        state.withLock { state in
            state.shuttingDown = true
            return Array(state.streams.values)
        }
    }

    /// Whether requests are still in progress (running tasks and open streams included).
    var hasInFlightWork: Bool {
        state.withLock { $0.activeRequests > 0 || !$0.pending.isEmpty || !$0.streams.isEmpty }
    }

    /// Answers every request whose task has not finished with 503 and resumes its connection.
    func resolvePendingForShutdown() {
        let pending = state.withLock { state in
            defer { state.pending = [:] }
            return Array(state.pending.values)
        }
        for context in pending {
            context.complete(with: Self.shuttingDownResponse, cancelTask: true)
        }
    }
}
