import BinderyHTTP
import BinderyRuntime
import Tracing

/// Records a request's spans once its answer is ready, from the instants its ``RequestTiming``
/// holds: a server span named after the method and route (continuing the trace of an incoming
/// `traceparent`), with child spans `apply`, `store commit` and `push` for a write.
///
/// Made after the fact, so the request path carries no span and no task-local context: with no
/// tracer (``BinderyConfiguration`` gets none when nothing is bootstrapped) nothing here runs, and
/// a request its sampler leaves out gets no attributes and no children.
struct RequestSpans: Sendable {
    let tracer: any Tracer

    /// Records the spans of `request`, answered with `answer` at `answered`.
    func record(_ request: Request, answer: Response, marks: RequestTiming.Marks?, answered: ContinuousClock.Instant) {
        var context = ServiceContext.topLevel
        tracer.extract(request.headers, into: &context, using: HTTPFieldsExtractor())
        // Span instants are wall-clock times: each measured instant is placed before now by how
        // long ago it was measured.
        let now = ContinuousClock.now
        let wall = DefaultTracerClock.now.nanosecondsSinceEpoch
        func at(_ instant: ContinuousClock.Instant) -> DefaultTracerClock.Instant {
            let ago = UInt64(max(0, (now - instant).nanoseconds))
            return DefaultTracerClock.Instant(nanosecondsSinceEpoch: wall > ago ? wall - ago : 0)
        }
        let route = answer.route ?? "unmatched"
        let status = Int(answer.status.code)
        let span = tracer.startSpan("\(request.method.rawValue) \(route)", context: context, ofKind: .server, at: at(request.receivedAt))
        // Sampled out: its children would be too, and each costs the tracer new ids.
        guard span.isRecording else { return span.end(at: at(answered)) }
        span.attributes["http.request.method"] = request.method.rawValue
        span.attributes["http.route"] = route
        span.attributes["url.path"] = request.path
        span.attributes["http.response.status_code"] = status
        if status >= 500 { span.setStatus(SpanStatus(code: .error)) }
        if let marks, let parsed = marks.parsed, let started = marks.commitStarted, let committed = marks.committed,
            started >= parsed
        {
            child("apply", of: span, from: at(parsed), to: at(started))
            child("store commit", of: span, from: at(started), to: at(committed))
            if let pushed = marks.pushed, pushed >= committed { child("push", of: span, from: at(committed), to: at(pushed)) }
        }
        span.end(at: at(answered))
    }

    /// A finished child span of `parent`.
    private func child(_ name: String, of parent: some Span, from start: DefaultTracerClock.Instant, to end: DefaultTracerClock.Instant) {
        tracer.startSpan(name, context: parent.context, ofKind: .internal, at: start).end(at: end)
    }
}
