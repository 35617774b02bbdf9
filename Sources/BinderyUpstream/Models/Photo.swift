/// A photo of the gallery's list: seed 004's `FRPPhotoModel` as the photo list returns it.
public struct Photo: Sendable, Equatable, Hashable, Identifiable {
    /// The photo's identifier (`"p01"`), the key for ``UpstreamProvider/photoDetails(id:)``.
    public var id: String
    /// The photo's name (seed 004's `photoName`).
    public var name: String
    /// The photographer's full name (JSON key path `user.fullname`).
    public var photographer: String
    /// The URL of the small thumbnail (JSON `image_url`, rewritten under the image base URL).
    public var thumbnailURL: String

    /// Creates a photo.
    public init(id: String, name: String, photographer: String, thumbnailURL: String) {
        self.id = id
        self.name = name
        self.photographer = photographer
        self.thumbnailURL = thumbnailURL
    }
}

extension Photo: Decodable {
    /// JSON key paths by property, as Mantle's `JSONKeyPathsByPropertyKey`
    /// (`photographer` comes from the nested key path `user.fullname`).
    enum CodingKeys: String, CodingKey {
        case id, name, user
        case thumbnailURL = "image_url"
    }

    /// The keys of the nested `user` object.
    enum UserKeys: String, CodingKey {
        case fullname
    }

    /// Decodes a photo from the upstream's JSON.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let user = try container.nestedContainer(keyedBy: UserKeys.self, forKey: .user)
        self.init(
            id: try container.decode(String.self, forKey: .id),
            name: try container.decode(String.self, forKey: .name),
            photographer: try user.decode(String.self, forKey: .fullname),
            thumbnailURL: decoder.imageURL(for: try container.decode(String.self, forKey: .thumbnailURL))
        )
    }
}
