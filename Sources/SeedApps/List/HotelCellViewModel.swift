import Bindery
import BinderyUpstream

/// A hotel as a POI cell (seed 000's `HotelCellViewModel`): no price and no right footer,
/// the first attribute tag as the campaign.
///
/// Not `@Observable`: its own properties never change (a new load makes new cells), so it needs
/// no registrar, one allocation fewer per cell in every session.
///
/// It keeps the load's (shared) array of hotels and its index in it, not a copy of the hotel.
public final class HotelCellViewModel: POICellViewModel {
    private let hotels: [Hotel]
    private let index: Int

    /// The hotel the cell shows.
    public var hotel: Hotel { hotels[index] }

    /// Creates the cell of `hotels[index]`.
    public init(hotels: [Hotel], index: Int) {
        precondition(hotels.indices.contains(index), "no hotel at \(index)")
        self.hotels = hotels
        self.index = index
    }

    /// Creates the cell of `hotel`.
    public convenience init(hotel: Hotel) {
        self.init(hotels: [hotel], index: 0)
    }

    /// `"hotel-<hotel id>"`.
    public var id: String { ListRules.cellID(kind: kind, upstreamID: hotel.id) }
    /// Always ``POIKind/hotel``.
    public var kind: POIKind { .hotel }
    /// The hotel's name.
    public var title: String { hotel.name }
    /// Hotels show no price.
    public var price: RichText? { nil }
    /// The first attribute tag, or "".
    public var campaign: String { ListRules.campaign(tags: hotel.poiAttrTagList) }
    /// Hidden when the hotel has no attribute tags.
    public var campaignHidden: Bool { hotel.poiAttrTagList.isEmpty }
    /// Hotels show no right footer.
    public var rightFooter: String? { nil }
    /// The hotel's front image.
    public var image: String { hotel.frontImageURL }

    /// The shared POI cell declaration.
    public static let declaration = ViewModelDeclaration<HotelCellViewModel>.poiCell
    /// Cells have no commands: made only if something asks (closing the session does).
    public private(set) lazy var commandStates = CommandStates()
}
