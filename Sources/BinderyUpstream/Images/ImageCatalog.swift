import Foundation

/// Every image the fixtures name, generated once: front images of spots and hotels
/// (320×200), photo thumbnails (200×200) and full-size photos (their details' size).
struct ImageCatalog: Sendable {
    /// The images by name (without `.svg`).
    private var images: [String: UpstreamImage] = [:]

    /// Builds the images of the fixtures' spots, hotels and photos.
    init(fixtures: FixtureStore) {
        let decoder = UpstreamResponseDecoder()
        let spots = (try? decoder.decode([ScenicSpot].self, from: fixtures.travel, endpoint: .travel)) ?? []
        for spot in spots {
            add(
                SVGCard(
                    name: spot.frontImageURL, title: spot.name,
                    caption: "\(spot.cityName) · \(spot.areaName)", width: 320, height: 200))
        }
        let hotels = (try? decoder.decode([Hotel].self, from: fixtures.hotel, endpoint: .hotel)) ?? []
        for hotel in hotels {
            add(
                SVGCard(
                    name: hotel.frontImageURL, title: hotel.name,
                    caption: hotel.cityName, width: 320, height: 200))
        }
        let photos = (try? decoder.decode([Photo].self, from: fixtures.photos, endpoint: .photos)) ?? []
        var photographers: [String: String] = [:]
        for photo in photos {
            photographers[photo.id] = photo.photographer
            add(
                SVGCard(
                    name: photo.thumbnailURL, title: photo.name,
                    caption: photo.photographer, width: 200, height: 200))
        }
        for body in fixtures.photoDetails.values {
            guard let details = try? decoder.decode(PhotoDetails.self, from: body, endpoint: .photoDetails) else {
                continue
            }
            add(
                SVGCard(
                    name: details.fullSizeURL, title: details.name,
                    caption: photographers[details.id] ?? "", width: details.width, height: details.height))
        }
    }

    /// The image named `name` (with or without `.svg`); nil for unknown names and for names
    /// with anything but letters, digits, `-`, `_` and `.` (no paths).
    func image(named name: String) -> UpstreamImage? {
        let bare = name.hasSuffix(".svg") ? String(name.dropLast(".svg".count)) : name
        guard Self.isValidName(bare) else { return nil }
        return images[bare]
    }

    /// Whether `name` is a plain image name: 1 to 128 of `A-Z a-z 0-9 - _ .`, not starting with
    /// a dot, so that `..`, `/` and `\` never reach a lookup.
    static func isValidName(_ name: String) -> Bool {
        guard !name.isEmpty, name.utf8.count <= 128, !name.hasPrefix("."), !name.contains("..") else {
            return false
        }
        return name.unicodeScalars.allSatisfy { scalar in
            scalar.isASCII
                && (scalar.properties.isAlphabetic || ("0"..."9").contains(scalar)
                    || scalar == "-" || scalar == "_" || scalar == ".")
        }
    }

    /// Adds the card's image, if its name is a plain image name.
    private mutating func add(_ card: SVGCard) {
        guard Self.isValidName(card.name) else { return }
        images[card.name] = UpstreamImage(
            name: card.name, data: Data(card.render().utf8), width: card.width, height: card.height
        )
    }

    /// The names of all images, sorted.
    var names: [String] { images.keys.sorted() }
}
