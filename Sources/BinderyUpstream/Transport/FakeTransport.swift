import Foundation

/// The fake upstream's wire: answers a request with raw JSON bytes, the fixture's body or a
/// malformed one. Decoding them is the network layer's job (``UpstreamResponseDecoder``).
struct FakeTransport: Sendable {
    /// The bodies to answer with.
    var fixtures: FixtureStore

    /// The body of a successful answer to `request`; an unknown photo id is 404 "Not Found".
    func body(for request: UpstreamRequest) throws(UpstreamError) -> Data {
        switch request {
        case .travel: return fixtures.travel
        case .hotel: return fixtures.hotel
        case .photos: return fixtures.photos
        case .courses: return fixtures.courses
        case .accounts: return fixtures.accounts
        case .photoDetails(let id):
            guard let body = fixtures.photoDetails[id] else { throw .notFound(.photoDetails) }
            return body
        }
    }

    /// The body of `request` as the drawn outcome delivers it: intact, or malformed.
    func body(for request: UpstreamRequest, malformed: MalformedBody?) throws(UpstreamError) -> Data {
        let body = try body(for: request)
        return malformed?.apply(to: body) ?? body
    }
}
