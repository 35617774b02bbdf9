import Bindery
import BinderyUpstream

/// A scenic spot as a POI cell (seed 000's `ScenicCellViewModel`).
///
/// The right footer follows the session's current city live: it reads the list's shared
/// ``CurrentCity``, so Observation re-renders the cell when the city changes.
///
/// Not `@Observable`: its own properties never change (a new load makes new cells), so it needs
/// no registrar, one allocation fewer per cell in every session.
///
/// It keeps the load's array of spots and its index in it rather than a copy of the spot: the
/// array is the one every session shares (the upstream's models are decoded once per body).
public final class ScenicCellViewModel: POICellViewModel {
    private let spots: [ScenicSpot]
    private let index: Int
    /// The session's current city, shared with the list.
    public let city: CurrentCity

    /// The spot the cell shows.
    public var scenic: ScenicSpot { spots[index] }

    /// Creates the cell of `spots[index]`, whose footer depends on `city`.
    public init(spots: [ScenicSpot], index: Int, city: CurrentCity) {
        precondition(spots.indices.contains(index), "no spot at \(index)")
        self.spots = spots
        self.index = index
        self.city = city
    }

    /// Creates the cell of `scenic`, whose footer depends on `city`.
    public convenience init(scenic: ScenicSpot, city: CurrentCity) {
        self.init(spots: [scenic], index: 0, city: city)
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
    /// Cells have no commands: made only if something asks (closing the session does).
    public private(set) lazy var commandStates = CommandStates()
}
