/// A city the upstream knows, from `cities.json` (`{"cityId": 1, "cityName": "北京"}`).
public struct City: Sendable, Equatable, Hashable, Identifiable {
    /// The upstream's city id (`cityId`), the value a scenic spot's `cityId` refers to.
    public var id: Int
    /// The city's display name (`cityName`).
    public var name: String

    /// Creates a city.
    public init(id: Int, name: String) {
        self.id = id
        self.name = name
    }
}

extension City: Decodable {
    /// JSON key paths by property, as Mantle's `JSONKeyPathsByPropertyKey`.
    enum CodingKeys: String, CodingKey {
        case id = "cityId"
        case name = "cityName"
    }
}
