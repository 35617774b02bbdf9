/// A hotel (酒店) from the hotel endpoint: seed 000's `Hotel` model.
public struct Hotel: Sendable, Equatable, Hashable, Identifiable {
    /// The upstream's stable id of the hotel (`"h2001"`).
    public var id: String
    /// The hotel's name, shown as the cell title.
    public var name: String
    /// The id of the hotel's city (`cityId`).
    public var cityId: Int
    /// The name of the hotel's city.
    public var cityName: String
    /// The URL of the front image (JSON `frontImg`, rewritten under the provider's image base URL).
    public var frontImageURL: String
    /// Attribute tags (`"免费WiFi"`); the first one is the cell's campaign, empty for none.
    public var poiAttrTagList: [String]

    /// Creates a hotel.
    public init(
        id: String, name: String, cityId: Int, cityName: String,
        frontImageURL: String, poiAttrTagList: [String]
    ) {
        self.id = id
        self.name = name
        self.cityId = cityId
        self.cityName = cityName
        self.frontImageURL = frontImageURL
        self.poiAttrTagList = poiAttrTagList
    }
}

extension Hotel: Decodable {
    /// JSON key paths by property, as Mantle's `JSONKeyPathsByPropertyKey`.
    enum CodingKeys: String, CodingKey {
        case id, name, cityId, cityName
        case frontImageURL = "frontImg"
        case poiAttrTagList
    }

    /// Decodes a hotel from the upstream's JSON, resolving `frontImg` like Mantle's URL transformer.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            id: try container.decode(String.self, forKey: .id),
            name: try container.decode(String.self, forKey: .name),
            cityId: try container.decode(Int.self, forKey: .cityId),
            cityName: try container.decode(String.self, forKey: .cityName),
            frontImageURL: decoder.imageURL(for: try container.decode(String.self, forKey: .frontImageURL)),
            poiAttrTagList: try container.decode([String].self, forKey: .poiAttrTagList)
        )
    }
}
