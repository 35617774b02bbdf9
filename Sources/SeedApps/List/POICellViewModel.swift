import Bindery

/// The two kinds of point of interest the list shows.
public enum POIKind: String, Sendable, Hashable, CaseIterable {
    /// A scenic spot (景点), from the travel endpoint.
    case scenic
    /// A hotel (酒店), from the hotel endpoint.
    case hotel
}

/// One cell of the POI list (seed 000's `POICellViewModel`): the UI properties every kind of POI
/// fills in, so that one cell view shows scenic spots and hotels alike (code reuse).
///
/// Each kind maps its own model onto these properties (``ScenicCellViewModel``,
/// ``HotelCellViewModel``); the snapshot shape, ``outputs``, is shared and lives here.
public protocol POICellViewModel: ViewModel {
    /// The cell's stable id in the list (`"scenic-s1001"`), also its path segment.
    var id: String { get }
    /// Which kind of POI the cell shows.
    var kind: POIKind { get }
    /// The main line.
    var title: String { get }
    /// The price as rich text; nil when the kind shows no price.
    var price: RichText? { get }
    /// The campaign label's text.
    var campaign: String { get }
    /// Whether the campaign view is hidden.
    var campaignHidden: Bool { get }
    /// The text in the cell's bottom-right corner; nil when the kind shows none.
    var rightFooter: String? { get }
    /// The URL of the front image.
    var image: String { get }
}

extension ViewModelDeclaration where Model: POICellViewModel {
    /// The one cell shape both kinds share: `kind`, `title`, `price`, `campaign`,
    /// `campaignHidden`, `rightFooter` and `image`; read-only, no commands.
    public static var poiCell: Self {
        Self(
            "POICell",
            summary: "One cell of the POI list: a scenic spot or a hotel in one shape (seed 000 Demo 1).",
            outputs: [
                .enumeration("kind", POIKind.allCases.map(\.rawValue)) { $0.kind.rawValue },
                .string("title") { $0.title },
                .init("price", schema: .nullable(RichText.schema)) { $0.price?.json ?? .null },
                .string("campaign") { $0.campaign },
                .boolean("campaignHidden") { $0.campaignHidden },
                .optionalString("rightFooter") { $0.rightFooter },
                .string("image") { $0.image },
            ]
        )
    }
}
