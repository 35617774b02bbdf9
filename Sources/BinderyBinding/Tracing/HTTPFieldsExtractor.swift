import HTTPTypes
import Instrumentation

/// Reads a request's header fields for the tracer's propagator (W3C `traceparent` and
/// `tracestate` with OpenTelemetry).
struct HTTPFieldsExtractor: Extractor {
    func extract(key: String, from carrier: HTTPFields) -> String? {
        HTTPField.Name(key).flatMap { carrier[$0] }
    }
}
