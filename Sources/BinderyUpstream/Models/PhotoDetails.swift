/// The details of one photo, with its full-size image: what seed 004's
/// `FRPPhotoImporter fetchPhotoDetails:` adds to a photo model.
public struct PhotoDetails: Sendable, Equatable, Hashable, Identifiable {
    /// The photo's identifier (`"p01"`).
    public var id: String
    /// The photo's name.
    public var name: String
    /// The URL of the full-size image (JSON `image_url`, rewritten under the image base URL).
    public var fullSizeURL: String
    /// The full-size image's width in pixels.
    public var width: Int
    /// The full-size image's height in pixels.
    public var height: Int

    /// Creates photo details.
    public init(id: String, name: String, fullSizeURL: String, width: Int, height: Int) {
        self.id = id
        self.name = name
        self.fullSizeURL = fullSizeURL
        self.width = width
        self.height = height
    }
}

extension PhotoDetails: Decodable {
    /// JSON key paths by property, as Mantle's `JSONKeyPathsByPropertyKey`.
    enum CodingKeys: String, CodingKey {
        case id, name
        case fullSizeURL = "image_url"
        case width, height
    }

    /// Decodes photo details from the upstream's JSON.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            id: try container.decode(String.self, forKey: .id),
            name: try container.decode(String.self, forKey: .name),
            fullSizeURL: decoder.imageURL(for: try container.decode(String.self, forKey: .fullSizeURL)),
            width: try container.decode(Int.self, forKey: .width),
            height: try container.decode(Int.self, forKey: .height)
        )
    }
}
