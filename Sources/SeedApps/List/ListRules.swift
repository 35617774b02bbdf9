import Foundation

/// The business rules of the POI list (seed 000 Demo 1), kept apart from the view models' wiring.
public enum ListRules {
    /// The colour of a scenic spot's price.
    public static let priceColor = "blue"
    /// The font size of the price's last character, in points.
    public static let priceLastCharacterFontSize = 10

    /// A scenic spot's price: `%.2f` of the lowest price, blue, its last character in 10 pt.
    public static func price(lowestPrice: Double) -> RichText {
        let text = String(format: "%.2f", lowestPrice)
        guard let last = text.last else { return RichText(runs: []) }
        return RichText(runs: [
            .init(text: String(text.dropLast()), color: priceColor),
            .init(text: String(last), color: priceColor, fontSize: priceLastCharacterFontSize),
        ])
    }

    /// A scenic spot's right footer: the district when the spot is in the user's current city,
    /// else the spot's city name.
    public static func rightFooter(cityId: Int, cityName: String, areaName: String, currentCityId: Int) -> String {
        cityId == currentCityId ? areaName : cityName
    }

    /// A hotel's campaign: its first attribute tag, or "" when it has none.
    public static func campaign(tags: [String]) -> String {
        tags.first ?? ""
    }

    /// Whether a cell hides its campaign view: when there is no campaign text.
    public static func campaignHidden(_ campaign: String) -> Bool {
        campaign.isEmpty
    }

    /// A cell's stable id in the list: `"<kind>-<upstream id>"` (`"scenic-s1001"`, `"hotel-h2001"`).
    public static func cellID(kind: POIKind, upstreamID: String) -> String {
        "\(kind.rawValue)-\(upstreamID)"
    }

    /// The child route a selected cell navigates to (the seed's Portal decides by business rule).
    ///
    /// Every kind opens its own detail page, the list's `item` route (`/list/items/<id>`); the
    /// kind is an argument so that scenic spots and hotels can later go to different pages.
    public static func route(for kind: POIKind) -> String {
        switch kind {
        case .scenic, .hotel: "item"
        }
    }
}
