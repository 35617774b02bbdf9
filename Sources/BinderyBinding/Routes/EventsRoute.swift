import BinderyHTTP
import BinderyRuntime
import HTTPTypes
import Synchronization

/// `GET /api/events?views=<path>,<path>…`: the event streams of several views of one session
/// over one connection, so a page (and every tab of a browser, through a leader tab) needs one
/// connection, however many views it shows. A browser allows six HTTP/1.1 connections per host:
/// a stream per view would use them up.
///
/// Each event is the view's own stream's event in an envelope naming the view (`snapshot`,
/// `patch`, `edits`, `presence`; `problem` for a view that cannot be followed, `end` when the
/// session ends); snapshots and patches carry the stream's ``ResumePoint`` as `id:`. When the
/// server serves a client, the stream first says which (`event: client`), and again if it changes.
struct EventsRoute: HTTPResponder {
    /// The most views one stream follows.
    static let maxViews = 32
    /// The longest view path taken.
    static let maxPathLength = 512

    let sessions: SessionResolver
    let streams: EventStreams
    let presence: PresenceRelay
    /// The client served, told on the stream; nil without one.
    let client: ClientVersion?

    func respond(to request: Request) async throws -> Response {
        let views = try Self.views(in: request.query["views"])
        let (session, setCookie) = try await sessions.session(for: request)
        let point = ResumePoint(parsing: request.headers[.lastEventID] ?? request.query["lastEventId"])
        let stream = ResponseStream()
        try streams.admit(stream, session: session.logID)
        stream.write(EventStreams.preamble)
        let graph = session.graph
        var watching: [(path: String, id: Int)] = []
        var stops: [@Sendable () -> Void] = []
        if let client {
            stream.write(EventStreams.clientFrame(client.current))
            stops.append(client.watch { stream.write(EventStreams.clientFrame($0)) })
        }
        let ended = EndCount(views: views.count, stream: stream)
        let admitted = sessions.tokenCheck(request, for: session)
        for view in views {
            do {
                let sender = EventSender(stream: stream, view: view, point: point)
                let id = try await graph.watch(
                    view, after: point.version(of: view), patches: true, admitted: admitted, send: sender.send
                ) {
                    stream.write(EventStreams.envelopeFrame(event: "end", id: nil, view: view, member: "end", payload: Array("true".utf8)))
                    ended.one()
                }
                watching.append((view, id))
            } catch {
                let problem = Problem(error)
                stream.write(EventStreams.envelopeFrame(event: "problem", id: nil, view: view, member: "problem", payload: problem.encoded()))
                ended.one()
                continue
            }
            if (try? await graph.showsCollaborativeTexts(at: view)) == true {
                stops.append(
                    presence.board.watch(view, viewer: session.collaborator.id) { payload in
                        stream.write(EventStreams.envelopeFrame(event: "presence", id: nil, view: view, member: "presence", payload: payload))
                    })
            }
        }
        let registry = sessions.store
        registry.streamChanged(session, opened: true)
        let watched = watching
        let stopPresence = stops
        stream.onTermination {
            stopPresence.forEach { $0() }
            registry.streamChanged(session, opened: false)
            Task { for (path, id) in watched { await graph.unwatch(path, id: id) } }
        }
        var response = Response.eventStream(stream, headers: [.init("X-Accel-Buffering")!: "no"])
        if let setCookie { response.headers.append(HTTPField(name: .setCookie, value: setCookie)) }
        return response.logging(session, route: "/api/events")
    }

    /// The view paths of `views=`: 1 to ``maxViews`` distinct paths, each 1 to ``maxPathLength``
    /// characters; a 400 problem otherwise.
    static func views(in query: String?) throws(Problem) -> [String] {
        func invalid(_ detail: String) -> Problem { Problem(status: .badRequest, title: "Invalid views", detail: detail) }
        guard let query, !query.isEmpty else { throw invalid("Name the views to follow: ?views=<path>,<path>…") }
        var views: [String] = []
        for part in query.split(separator: ",", omittingEmptySubsequences: false) {
            let path = part.hasPrefix("/") ? String(part.dropFirst()) : String(part)
            guard !path.isEmpty, path.unicodeScalars.count <= maxPathLength else {
                throw invalid("Each view is a path of 1 to \(maxPathLength) characters, separated by commas.")
            }
            if !views.contains(path) { views.append(path) }
        }
        guard views.count <= maxViews else { throw invalid("One stream follows at most \(maxViews) views.") }
        return views
    }
}

/// Finishes a stream of several views once every view has ended (or could not be followed).
private final class EndCount: Sendable {
    private let left: Mutex<Int>
    private let stream: ResponseStream

    init(views: Int, stream: ResponseStream) {
        self.left = Mutex(views)
        self.stream = stream
    }

    func one() {
        let done = left.withLock { left in
            left -= 1
            return left == 0
        }
        if done { stream.finish() }
    }
}
