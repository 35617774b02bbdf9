/// One step of a development recipe (seed 003's `ASHStep`): a bath and how long it lasts.
public struct Step: Sendable, Hashable, Codable {
    /// A stable id within its recipe (`s1`, or `s` and 8 hex digits for an added step): its
    /// editor's path segment, so a move or an insertion never moves anyone's focus to another
    /// step. Steps stored before steps had ids get `s1`, `s2`… by position (``Recipe`` does it).
    public var id: String
    /// The bath, e.g. "Developer".
    public var name: String
    /// How long the step lasts, in seconds (at least 1).
    public var durationSeconds: Int
    /// The bath's temperature in °C, when it matters.
    public var temperatureCelsius: Double?
    /// How to agitate, or any other note ("" when none).
    public var agitation: String

    /// Creates a step; an empty `id` is given one by the recipe it goes into.
    public init(id: String = "", name: String, durationSeconds: Int, temperatureCelsius: Double? = nil, agitation: String = "") {
        self.id = id
        self.name = name
        self.durationSeconds = durationSeconds
        self.temperatureCelsius = temperatureCelsius
        self.agitation = agitation
    }

    /// Reads a step; one stored without an id gets an empty one (its recipe numbers it).
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        id = try container.decodeIfPresent(String.self, forKey: .id) ?? ""
        name = try container.decode(String.self, forKey: .name)
        durationSeconds = try container.decode(Int.self, forKey: .durationSeconds)
        temperatureCelsius = try container.decodeIfPresent(Double.self, forKey: .temperatureCelsius)
        agitation = try container.decode(String.self, forKey: .agitation)
    }

    /// `s` and 8 random hex digits: the id of a step added to a recipe.
    public static func randomID() -> String {
        let digits = String(UInt32.random(in: .min ... .max), radix: 16)
        return "s" + String(repeating: "0", count: 8 - digits.count) + digits
    }
}
