import Foundation

/// The "network layer" of the fake upstream: decodes a raw response body `{"data": ...}` into
/// models with `JSONDecoder`, as seed 000's `loadTravelData` does with `NSJSONSerialization` and
/// `MTLJSONAdapter`.
///
/// Every decoding failure (invalid JSON, a missing `data` key, a model with a missing or
/// mistyped key) becomes ``UpstreamError/badJSON(_:)``: code 502, "Error JSON Data".
public struct UpstreamResponseDecoder: Sendable {
    /// The base URL that image names in the JSON are resolved under; `nil` keeps them as they are.
    public var imageBaseURL: String?

    /// Creates a decoder that resolves image names under `imageBaseURL` (nil: leave them as is).
    public init(imageBaseURL: String? = nil) {
        self.imageBaseURL = imageBaseURL
    }

    /// Decodes the `data` of a response body from `endpoint`.
    public func decode<Payload: Decodable>(
        _ type: Payload.Type, from body: Data, endpoint: UpstreamEndpoint
    ) throws(UpstreamError) -> Payload {
        let decoder = JSONDecoder()
        if let imageBaseURL {
            decoder.userInfo[.upstreamImageBaseURL] = imageBaseURL
        }
        do {
            return try decoder.decode(ResponseEnvelope<Payload>.self, from: body).data
        } catch {
            throw .badJSON(endpoint)
        }
    }
}
