/// A scenic spot (景点) from the travel endpoint: seed 000's `Scenic` model.
public struct ScenicSpot: Sendable, Equatable, Hashable, Identifiable {
    /// The upstream's stable id of the spot (`"s1001"`).
    public var id: String
    /// The spot's name, shown as the cell title.
    public var name: String
    /// The id of the spot's city (`cityId`).
    public var cityId: Int
    /// The name of the spot's city, shown when the user is in another city.
    public var cityName: String
    /// The district inside the city, shown when the user is in the same city.
    public var areaName: String
    /// The URL of the front image (JSON `frontImg`, rewritten under the provider's image base URL).
    public var frontImageURL: String
    /// The lowest ticket price.
    public var lowestPrice: Double
    /// The campaign tag (`"限时特惠"`); empty when the spot has no campaign.
    public var campaignTag: String

    /// Creates a scenic spot.
    public init(
        id: String, name: String, cityId: Int, cityName: String, areaName: String,
        frontImageURL: String, lowestPrice: Double, campaignTag: String
    ) {
        self.id = id
        self.name = name
        self.cityId = cityId
        self.cityName = cityName
        self.areaName = areaName
        self.frontImageURL = frontImageURL
        self.lowestPrice = lowestPrice
        self.campaignTag = campaignTag
    }
}

extension ScenicSpot: Decodable {
    /// JSON key paths by property, as Mantle's `JSONKeyPathsByPropertyKey`.
    enum CodingKeys: String, CodingKey {
        case id, name, cityId, cityName, areaName
        case frontImageURL = "frontImg"
        case lowestPrice, campaignTag
    }

    /// Decodes a spot from the upstream's JSON, resolving `frontImg` like Mantle's URL transformer.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            id: try container.decode(String.self, forKey: .id),
            name: try container.decode(String.self, forKey: .name),
            cityId: try container.decode(Int.self, forKey: .cityId),
            cityName: try container.decode(String.self, forKey: .cityName),
            areaName: try container.decode(String.self, forKey: .areaName),
            frontImageURL: decoder.imageURL(for: try container.decode(String.self, forKey: .frontImageURL)),
            lowestPrice: try container.decode(Double.self, forKey: .lowestPrice),
            campaignTag: try container.decode(String.self, forKey: .campaignTag)
        )
    }
}
