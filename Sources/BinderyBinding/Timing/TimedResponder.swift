import BinderyHTTP
import BinderyRuntime
import HTTPTypes

/// In front of every route: binds a ``RequestTiming`` while a request is answered, adds the
/// answer's `Server-Timing` (``RequestPhases``) and, when a tracer is set, records the
/// request's spans (``RequestSpans``).
struct TimedResponder: HTTPResponder {
    /// The routes.
    let next: any HTTPResponder
    /// The spans to record; nil when tracing is off (nothing is made then).
    let spans: RequestSpans?

    func respondImmediately(to request: Request) -> Response? {
        guard var response = next.respondImmediately(to: request) else { return nil }
        finish(&response, for: request, marks: nil)
        return response
    }

    func respond(to request: Request) async throws -> Response {
        let timing = RequestTiming(received: request.receivedAt)
        var response: Response
        do {
            response = try await RequestTiming.$current.withValue(timing) { try await next.respond(to: request) }
        } catch {
            response = Problem.from(error).response
        }
        finish(&response, for: request, marks: timing.marks)
        return response
    }

    /// Adds `Server-Timing` and records the spans of the answered request.
    private func finish(_ response: inout Response, for request: Request, marks: RequestTiming.Marks?) {
        let answered = ContinuousClock.now
        let phases = RequestPhases(marks: marks, received: request.receivedAt, answered: answered)
        response.headers[.serverTiming] = phases.serverTiming
        spans?.record(request, answer: response, marks: marks, answered: answered)
    }
}

extension HTTPField.Name {
    /// `Server-Timing` (W3C Server Timing): the phases of the answer, shown by browsers' devtools.
    static let serverTiming = HTTPField.Name("Server-Timing")!
}
