/// One finished upstream call, as told to the provider's observer.
public struct UpstreamCall: Sendable {
    /// The endpoint called.
    public let endpoint: UpstreamEndpoint
    /// How long the call took on the provider's clock.
    public let duration: Duration
    /// How it failed; nil when it succeeded.
    public let error: UpstreamError?
}
