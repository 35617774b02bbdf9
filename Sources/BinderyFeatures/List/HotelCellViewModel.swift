import BinderyRuntime
import BinderyUpstream

/// A hotel as a POI cell (seed 000's `HotelCellViewModel`): no price and no right footer,
/// the first attribute tag as the campaign.
///
/// Not `@Observable`: its own properties never change (a new load makes new cells), so it needs
/// no registrar, one allocation fewer per cell in every session.
public final class HotelCellViewModel: POICellViewModel {
    /// The hotel the cell shows.
    public let hotel: Hotel

    /// Creates the cell of `hotel`.
    public init(hotel: Hotel) {
        self.hotel = hotel
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
    /// Cells have no commands.
    public let commandStates = CommandStates()
}
