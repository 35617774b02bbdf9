/// How one endpoint of the fake upstream behaves: its latency and the share of each failure.
///
/// Each call draws one number in `0..<1`: below `failureRate` it fails with "Bad Network" (500);
/// below `failureRate + timeoutRate` it times out (504 after `timeoutMs`); below
/// `failureRate + timeoutRate + malformedRate` its body is malformed (502 "Error JSON Data");
/// otherwise it succeeds after `latencyMs`.
public struct EndpointSettings: Sendable, Equatable, Hashable, Codable {
    /// The milliseconds a call takes before it answers (seed 000: 1000).
    public var latencyMs: Int
    /// The share of calls that fail with 500 "Bad Network", in `0...1` (seed 000: 0.25 for travel).
    public var failureRate: Double
    /// The share of calls whose body is truncated or garbled JSON, in `0...1`.
    public var malformedRate: Double
    /// The share of calls that never answer and fail with 504 "Timeout", in `0...1`.
    public var timeoutRate: Double
    /// The milliseconds a timed-out call hangs, from its start, before failing.
    public var timeoutMs: Int

    /// The accepted range of `latencyMs` and `timeoutMs`.
    public static let millisecondsRange = 0...60_000
    /// The accepted range of the rates.
    public static let rateRange = 0.0...1.0

    /// Creates endpoint settings; the defaults are one second of latency and no failures.
    public init(
        latencyMs: Int = 1000, failureRate: Double = 0, malformedRate: Double = 0,
        timeoutRate: Double = 0, timeoutMs: Int = 5000
    ) {
        self.latencyMs = latencyMs
        self.failureRate = failureRate
        self.malformedRate = malformedRate
        self.timeoutRate = timeoutRate
        self.timeoutMs = timeoutMs
    }

    /// Decodes complete settings: every field is required and validated like a patch.
    public init(from decoder: any Decoder) throws {
        let path = decoder.codingPath.map(\.stringValue).joined(separator: ".")
        do {
            let object = try PatchObject(decoder: decoder, path: path)
            self = try EndpointSettingsPatch(object).complete(path: path)
        } catch {
            throw error.asDecodingError(codingPath: decoder.codingPath)
        }
    }
}
