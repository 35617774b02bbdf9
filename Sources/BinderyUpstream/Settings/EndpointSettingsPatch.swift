/// The part of a merge patch for one endpoint: each field present is replaced, the others kept.
struct EndpointSettingsPatch: Equatable {
    /// The new `latencyMs`, if the patch has one.
    var latencyMs: Int?
    /// The new `failureRate`, if the patch has one.
    var failureRate: Double?
    /// The new `malformedRate`, if the patch has one.
    var malformedRate: Double?
    /// The new `timeoutRate`, if the patch has one.
    var timeoutRate: Double?
    /// The new `timeoutMs`, if the patch has one.
    var timeoutMs: Int?

    /// The field names, in the order settings encode them.
    static let fieldNames = ["latencyMs", "failureRate", "malformedRate", "timeoutRate", "timeoutMs"]

    /// Reads and validates an endpoint's patch object.
    init(_ object: PatchObject) throws(SettingsPatchError) {
        let milliseconds = EndpointSettings.millisecondsRange
        let rates = EndpointSettings.rateRange
        for key in object.keys {
            switch key.stringValue {
            case "latencyMs": latencyMs = try object.integer(key, in: milliseconds, unit: "milliseconds")
            case "failureRate": failureRate = try object.number(key, in: rates)
            case "malformedRate": malformedRate = try object.number(key, in: rates)
            case "timeoutRate": timeoutRate = try object.number(key, in: rates)
            case "timeoutMs": timeoutMs = try object.integer(key, in: milliseconds, unit: "milliseconds")
            default: throw object.unknown(key, expected: Self.fieldNames)
            }
        }
    }

    /// The settings with this patch applied.
    func applied(to settings: EndpointSettings) -> EndpointSettings {
        EndpointSettings(
            latencyMs: latencyMs ?? settings.latencyMs,
            failureRate: failureRate ?? settings.failureRate,
            malformedRate: malformedRate ?? settings.malformedRate,
            timeoutRate: timeoutRate ?? settings.timeoutRate,
            timeoutMs: timeoutMs ?? settings.timeoutMs
        )
    }

    /// The settings this patch describes in full; refused when a field is missing.
    func complete(path: String) throws(SettingsPatchError) -> EndpointSettings {
        guard let latencyMs, let failureRate, let malformedRate, let timeoutRate, let timeoutMs else {
            let present: [Bool] = [
                latencyMs != nil, failureRate != nil, malformedRate != nil, timeoutRate != nil, timeoutMs != nil,
            ]
            let missing = zip(Self.fieldNames, present).first { !$0.1 }?.0 ?? ""
            throw SettingsPatchError(
                path: path.isEmpty ? missing : "\(path).\(missing)", message: "is required"
            )
        }
        return EndpointSettings(
            latencyMs: latencyMs, failureRate: failureRate, malformedRate: malformedRate,
            timeoutRate: timeoutRate, timeoutMs: timeoutMs
        )
    }
}
