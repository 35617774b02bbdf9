import BinderyRuntime
import BinderyUpstream

/// A scenic spot as a POI cell (seed 000's `ScenicCellViewModel`).
///
/// The right footer follows the session's current city live: it reads the list's shared
/// ``CurrentCity``, so Observation re-renders the cell when the city changes.
///
/// Not `@Observable`: its own properties never change (a new load makes new cells), so it needs
/// no registrar, one allocation fewer per cell in every session.
public final class ScenicCellViewModel: POICellViewModel {
    /// The spot the cell shows.
    public let scenic: ScenicSpot
    /// The session's current city, shared with the list.
    public let city: CurrentCity

    /// Creates the cell of `scenic`, whose footer depends on `city`.
    public init(scenic: ScenicSpot, city: CurrentCity) {
        self.scenic = scenic
        self.city = city
    }

    /// `"scenic-<spot id>"`.
    public var id: String { ListRules.cellID(kind: kind, upstreamID: scenic.id) }
    /// Always ``POIKind/scenic``.
    public var kind: POIKind { .scenic }
    /// The spot's name.
    public var title: String { scenic.name }
    /// The lowest price, `%.2f`, blue, the last character smaller.
    public var price: RichText? { ListRules.price(lowestPrice: scenic.lowestPrice) }
    /// The campaign tag.
    public var campaign: String { scenic.campaignTag }
    /// Hidden when the spot has no campaign tag.
    public var campaignHidden: Bool { ListRules.campaignHidden(scenic.campaignTag) }
    /// The district in the current city, else the spot's city name.
    public var rightFooter: String? {
        ListRules.rightFooter(
            cityId: scenic.cityId, cityName: scenic.cityName, areaName: scenic.areaName, currentCityId: city.id
        )
    }
    /// The spot's front image.
    public var image: String { scenic.frontImageURL }

    /// The shared POI cell declaration.
    public static let declaration = ViewModelDeclaration<ScenicCellViewModel>.poiCell
    /// Cells have no commands.
    public let commandStates = CommandStates()
}
