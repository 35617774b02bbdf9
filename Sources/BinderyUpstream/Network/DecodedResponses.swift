import Foundation
import Synchronization

/// The last body each request was answered with and the models it decoded to.
///
/// The fixtures are the same for every session, so without this every session that loads the
/// list kept its own copy of the same spots and hotels (their strings, arrays and the JSON its
/// snapshots and stored state are built from). A body equal to the last one for that request
/// (one `memcmp`, far cheaper than decoding) gives back the same models, shared by reference.
final class DecodedResponses: Sendable {
    private struct Entry: Sendable {
        let body: Data
        let models: any Sendable
    }

    private let entries = Mutex<[String: Entry]>([:])

    /// The models of `body` for `request`: the ones decoded last time when the body is the same,
    /// else `decode(body)`, remembered for next time (one entry per request, so at most one per
    /// fixture).
    func models<Payload: Sendable, Failure: Error>(
        of body: Data, for request: UpstreamRequest, decode: (Data) throws(Failure) -> Payload
    ) throws(Failure) -> Payload {
        let key = "\(request)/\(Payload.self)"
        if let entry = entries.withLock({ $0[key] }), entry.body == body, let models = entry.models as? Payload {
            return models
        }
        let models = try decode(body)
        entries.withLock { $0[key] = Entry(body: body, models: models) }
        return models
    }
}
