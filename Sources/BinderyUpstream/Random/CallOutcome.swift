/// What one upstream call does, drawn before the call waits.
enum CallOutcome: Equatable, Sendable {
    /// The fixture's body after the latency.
    case success
    /// 500 "Bad Network" after the latency.
    case failure
    /// 504 "Timeout" after `timeoutMs`.
    case timeout
    /// A malformed body after the latency, which fails to decode: 502 "Error JSON Data".
    case malformed(MalformedBody)

    /// Draws an outcome: always exactly two numbers, so that changing the rates never shifts
    /// the sequence of later calls.
    static func draw(using generator: inout SplitMix64, settings: EndpointSettings) -> CallOutcome {
        let roll = generator.nextUnit()
        let variant = generator.next()
        var threshold = settings.failureRate
        if roll < threshold { return .failure }
        threshold += settings.timeoutRate
        if roll < threshold { return .timeout }
        threshold += settings.malformedRate
        if roll < threshold {
            return .malformed(MalformedBody.allCases[Int(variant % UInt64(MalformedBody.allCases.count))])
        }
        return .success
    }
}
