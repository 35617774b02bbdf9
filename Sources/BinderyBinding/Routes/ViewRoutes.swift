import BinderyHTTP
import BinderyRuntime
import HTTPTypes

/// Serves `/api/views/{path}`: snapshots, input writes, commands, event streams, long-polls,
/// collaborative texts and presence.
struct ViewRoutes: HTTPResponder {
    let sessions: SessionResolver
    /// The declarations, which decide the methods each address allows.
    let schemas: ViewSchemaIndex
    let streams: EventStreams
    /// Who is on which screen.
    let presence: PresenceRelay
    let metrics: BinderyMetrics
    /// The longest a long-poll waits when the client does not say (`Prefer: wait=N` overrides).
    let defaultLongPollWait: Duration

    /// A cached snapshot straight from the session's board: no task hop, no encoding.
    func respondImmediately(to request: Request) -> Response? {
        guard request.method == .get || request.method == .head, request.query.isEmpty || request.query["after"] == nil,
            case .snapshot(let path)? = address(of: request),
            let session = sessions.existing(for: request),
            let snapshot = session.graph.board.snapshot(at: path)
        else { return nil }
        return SnapshotResponse.make(snapshot, for: request).logging(session, route: "/api/views/{path}")
    }

    func respond(to request: Request) async throws -> Response {
        guard let address = address(of: request) else {
            throw Problem(status: .notFound, detail: "No resource at \(request.path).")
        }
        let allowed = address.allowedMethods(of: schemas.schema(at: address.path))
        let allow = allowed.map(\.rawValue).joined(separator: ", ")
        if request.method == .options {
            return Response(status: .noContent, headers: [.allow: allow])
        }
        guard allowed.contains(request.method) else {
            throw Problem(
                status: .methodNotAllowed, detail: "\(request.method.rawValue) is not allowed here; use \(allow).",
                headers: [.allow: allow]
            )
        }
        if let visitor = try await visitorResponse(to: request, at: address) { return visitor }
        let (session, setCookie) = try await sessions.session(for: request)
        if request.method == .patch || request.method == .post { session.noteWritten() }
        var response: Response
        if let path = Self.writtenPath(address, method: request.method) {
            // Writes and commands run at most once per Idempotency-Key; a retry whose first
            // attempt's answer is lost gets the view model's current snapshot. The answer of a view
            // model with a sensitive input is kept without its body (a replay gets the current
            // snapshot): a secret never reaches the store.
            response = await sessions.store.idempotency.respond(
                to: request, in: session, sensitive: schemas.schema(at: path)?.sensitiveInputNames ?? [],
                current: { await Self.current(path, in: session, for: request) },
                run: { await self.answer(request, at: address, in: session) }
            )
        } else {
            response = await answer(request, at: address, in: session)
        }
        if let setCookie { response.headers.append(HTTPField(name: .setCookie, value: setCookie)) }
        if request.method == .patch || request.method == .post { recordLatency(of: address.path, for: request) }
        return response.logging(session, route: address.route)
    }

    private func respond(to request: Request, at address: ViewAddress, in session: Session) async throws -> Response {
        let graph = session.graph
        switch address {
        case .snapshot(let path) where request.method == .patch:
            let patch = try JSONBody.decode(request) ?? .null
            RequestTiming.current?.mark(.parsed)
            let condition = request.headers.value(.ifMatch).flatMap(EntityTagCondition.init(header:))
            let snapshot = try await graph.write(path, patch: patch, ifVersion: condition?.strongVersions)
            return SnapshotResponse.make(snapshot, for: request)
        case .snapshot(let path):
            guard let after = request.query["after"] else {
                return SnapshotResponse.make(try await graph.snapshot(path), for: request)
            }
            guard let version = Int(after), version >= 0 else {
                throw Problem(status: .badRequest, title: "Invalid version", detail: "'after' must be a version: an integer from 0 to \(Int.max).")
            }
            let wait = Preferences(request).wait ?? defaultLongPollWait
            let admitted = sessions.tokenCheck(request, for: session)
            if let snapshot = try await graph.snapshot(path, after: version, waitingUpTo: wait, admitted: admitted) {
                return SnapshotResponse.make(snapshot, for: request)
            }
            return SnapshotResponse.make(try await graph.snapshot(path), for: request, notModified: true)
        case .command(let path, let name):
            // A form or a `text/plain` body is what any page can send without asking (a CORS
            // "simple request"): commands take JSON or nothing.
            if let type = request.headers.value(.contentType), !MediaType.isJSON(type) {
                throw Problem(
                    status: .unsupportedMediaType,
                    detail: "Command arguments are JSON (application/json); send no Content-Type without an argument."
                )
            }
            let argument = try JSONBody.decode(request)
            RequestTiming.current?.mark(.parsed)
            // A sign-in is answered once done, whatever the client asked: only its answer can carry
            // the session's new token.
            let signsIn = schemas.schema(at: path)?.commands.first { $0.name == name }?.signsIn == true
            let wait = signsIn ? Self.signInWait : Preferences(request).wait ?? .zero
            switch try await graph.execute(path, command: name, argument: argument, wait: wait) {
            case .completed(let snapshot, let result):
                metrics.command(path: path, name: name, failed: false)
                let token = SignInRecord.current?.token
                var response = SnapshotResponse.make(snapshot, navigate: result.navigate, token: token, for: request)
                if signsIn { response.logMetadata["auth.sign_in"] = token == nil ? "unchanged" : "signed_in" }
                return response
            case .running(let snapshot):
                metrics.command(path: path, name: name, failed: false)
                return SnapshotResponse.make(snapshot, for: request, status: .accepted)
            case .failed(_, let failure):
                metrics.command(path: path, name: name, failed: true)
                let problem = Problem(failure, command: name)
                return signsIn ? problem.signInFailure : problem.response
            }
        case .cancel(let path, let name):
            return SnapshotResponse.make(try await graph.cancel(path, command: name), for: request)
        case .events(let path):
            return try await openStream(path, for: request, in: session)
        case .text(let path, let name):
            var after: Int?
            if let value = request.query["after"] {
                guard let revision = Int(value), revision >= 0 else {
                    throw Problem(status: .badRequest, title: "Invalid revision", detail: "'after' must be a revision, 0 or more.")
                }
                after = revision
            }
            let (text, revision, edits) = try await graph.text(path, input: name, after: after)
            return Response.json(
                JSONWriter.bytes(of: TextEditBody.text(text, revision: revision, after: after, edits: edits ?? nil)),
                headers: [.cacheControl: "no-store"])
        case .presence(let path):
            return try await presence(at: path, for: request, in: session)
        case .versions(let path):
            return try await versions(of: path, in: session)
        case .textOps(let path, let name):
            let edit = try TextEditBody.request(from: try JSONBody.decode(request), input: name)
            RequestTiming.current?.mark(.parsed)
            let applied = try await graph.edit(path, input: name, edit)
            return Response.json(JSONWriter.bytes(of: TextEditBody.applied(applied, id: edit.id)))
        }
    }

    /// Reading a screen without a session (or with an unknown cookie) creates none: the snapshot a
    /// new session would show, kept nowhere. Nil when the request has a session or is no such read.
    private func visitorResponse(to request: Request, at address: ViewAddress) async throws -> Response? {
        guard case .snapshot(let path) = address, request.method == .get || request.method == .head,
            request.query["after"] == nil
        else { return nil }
        let existing = try await sessions.existingSession(for: request)
        guard existing == nil else { return nil }
        var response: Response
        do {
            response = SnapshotResponse.make(try await sessions.store.visitorSnapshot(path), for: request)
        } catch {
            response = Problem(error).response
        }
        response.route = address.route
        return response
    }

    /// The path a write or a command changes (what an `Idempotency-Key` covers); nil otherwise.
    private static func writtenPath(_ address: ViewAddress, method: HTTPRequest.Method) -> String? {
        switch address {
        case .snapshot(let path) where method == .patch: path
        case .command(let path, _): path
        default: nil
        }
    }

    /// Records a write's latency on its screen, and its budget breaches, from the marks of its
    /// timing: nothing when it committed no version (refused, changed nothing, a replay).
    private func recordLatency(of path: String, for request: Request) {
        guard let marks = RequestTiming.current?.marks, let committed = marks.committed, let screen = path.split(separator: "/").first
        else { return }
        metrics.writeLatency(
            screen: String(screen), toCommit: committed - request.receivedAt,
            toPush: marks.pushed.map { $0 - request.receivedAt },
            budgets: schemas.schema(at: path)?.latencyBudgets ?? []
        )
    }

    /// How long a sign-in command may take before it is answered 202 (its token then lost: the
    /// client signs in again).
    static let signInWait = Duration.seconds(300)

    /// The answer to `request` in `session`, its errors as problems; for the session's viewer
    /// (``Viewer/current``), with the session's new cookie when this request signed it in.
    private func answer(_ request: Request, at address: ViewAddress, in session: Session) async -> Response {
        let signIn = SignInRecord()
        var response: Response
        do {
            response = try await SignInRecord.$current.withValue(signIn) {
                try await Viewer.$current.withValue(session.viewer) {
                    try await Collaborator.$current.withValue(session.collaborator) {
                        try await respond(to: request, at: address, in: session)
                    }
                }
            }
        } catch let error as ViewModelError {
            response = Problem(error).response
        } catch {
            response = Problem.from(error).response
        }
        if let token = signIn.token {
            response.headers.append(HTTPField(name: .setCookie, value: SessionResolver.cookie(token, secure: sessions.isSecure(request))))
        }
        return response
    }

    /// The view model's current snapshot, as a write's answer.
    private static func current(_ path: String, in session: Session, for request: Request) async -> Response {
        do {
            return SnapshotResponse.make(try await session.graph.snapshot(path), for: request)
        } catch {
            return Problem(error).response
        }
    }

    /// GET: who else is here; PUT `{"field": name|null}`: I am here (again: a heartbeat);
    /// DELETE: I left. The screen must exist in the session; the answer is always who is here.
    /// Only screens that show shared texts are shared: on any other (a session's own form) the
    /// answer is always "nobody else".
    private func presence(at path: String, for request: Request, in session: Session) async throws -> Response {
        let shared = try await session.graph.showsCollaborativeTexts(at: path)
        let you = session.collaborator
        var field: String?
        switch request.method {
        case .put:
            field = try PresenceBody.field(from: try JSONBody.decode(request))
            if shared { await presence.arrive(you, at: path, field: field) }
        case .delete:
            if shared { await presence.leave(you, from: path) }
        default:
            field = presence.board.entry(of: you.id, at: path)?.field
        }
        let others = shared ? presence.board.others(at: path, besides: you.id) : []
        let body = PresenceBody.answer(you: you, field: field, others: others)
        return Response.json(JSONWriter.bytes(of: body), headers: [.cacheControl: "no-store"])
    }

    /// Sends `stream` the presence events of a shared screen; answers how to stop.
    private func watchPresence(_ path: String, shared: Bool, viewer: String, stream: ResponseStream) -> @Sendable () -> Void {
        guard shared else { return {} }
        return presence.board.watch(path, viewer: viewer) { payload in stream.write(EventStreams.presenceFrame(payload)) }
    }

    private func openStream(_ path: String, for request: Request, in session: Session) async throws -> Response {
        let resume = (request.headers[.lastEventID] ?? request.query["lastEventId"]).flatMap { Int($0) }
        let stream = ResponseStream()
        try streams.admit(stream, session: session.logID)
        stream.write(EventStreams.preamble)
        let graph = session.graph
        // `?patches=1`: a version that follows the one this stream sent last goes out as a JSON
        // Patch when that is smaller; the first, a resumed gap and anything else as a snapshot.
        let sender = EventSender(stream: stream, patches: request.query["patches"] == "1", lastSent: resume)
        let sharesPresence = (try? await graph.showsCollaborativeTexts(at: path)) ?? false
        let stopPresence = watchPresence(path, shared: sharesPresence, viewer: session.collaborator.id, stream: stream)
        do {
            let id = try await graph.watch(
                path, after: resume, patches: sender.patches, admitted: sessions.tokenCheck(request, for: session),
                send: sender.send, end: { stream.finish() }
            )
            let sessions = sessions.store
            sessions.streamChanged(session, opened: true)
            stream.onTermination {
                stopPresence()
                sessions.streamChanged(session, opened: false)
                Task { await graph.unwatch(path, id: id) }
            }
        } catch {
            stopPresence()
            streams.withdraw(stream, session: session.logID)
            throw error
        }
        return Response.eventStream(stream, headers: [.init("X-Accel-Buffering")!: "no"])
    }

    private func address(of request: Request) -> ViewAddress? {
        request.parameter("rest").flatMap(ViewAddress.init)
    }
}

extension HTTPField.Name {
    /// `Last-Event-ID`, sent by EventSource when it reconnects.
    static let lastEventID = HTTPField.Name("Last-Event-ID")!
}

extension Response {
    /// Adds the session's log name (never its token), its user's id when signed in, and
    /// optionally the route to the log line.
    func logging(_ session: Session, route: String? = nil) -> Response {
        var response = self
        response.logMetadata["session.id"] = session.logID
        if let user = session.user { response.logMetadata["user.id"] = user.id }
        if let route { response.route = route }
        return response
    }
}
