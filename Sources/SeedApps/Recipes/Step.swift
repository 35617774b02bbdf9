/// One step of a development recipe (seed 003's `ASHStep`): a bath and how long it lasts.
public struct Step: Sendable, Hashable, Codable {
    /// The bath, e.g. "Developer".
    public var name: String
    /// How long the step lasts, in seconds (at least 1).
    public var durationSeconds: Int
    /// The bath's temperature in °C, when it matters.
    public var temperatureCelsius: Double?
    /// How to agitate, or any other note ("" when none).
    public var agitation: String

    /// Creates a step.
    public init(name: String, durationSeconds: Int, temperatureCelsius: Double? = nil, agitation: String = "") {
        self.name = name
        self.durationSeconds = durationSeconds
        self.temperatureCelsius = temperatureCelsius
        self.agitation = agitation
    }
}
