import SeedApps
import BinderyRuntime
import BinderyUpstream
import Observation
import Synchronization
import Testing

@MainActor
@Suite("List cells (seed 000 Demo 1: POICellViewModel)")
struct ListCellTests {
    static let spot = ScenicSpot(
        id: "s1007", name: "东方明珠广播电视塔", cityId: 10, cityName: "上海", areaName: "浦东新区",
        frontImageURL: "/upstream/images/scenic-oriental-pearl.svg", lowestPrice: 128.5, campaignTag: "夜游特惠"
    )
    static let hotel = Hotel(
        id: "h2001", name: "北京王府井希尔顿酒店", cityId: 1, cityName: "北京",
        frontImageURL: "/upstream/images/hotel-wangfujing-hilton.svg", poiAttrTagList: ["免费WiFi", "含早餐"]
    )

    @Test func scenicCellMapsTheSpot() {
        let cell = ScenicCellViewModel(scenic: Self.spot, city: CurrentCity(id: 10))
        #expect(cell.id == "scenic-s1007")
        #expect(
            cell.outputs == [
                "kind": "scenic",
                "title": "东方明珠广播电视塔",
                "price": [
                    "text": "128.50",
                    "runs": [["text": "128.5", "color": "blue"], ["text": "0", "color": "blue", "fontSize": 10]],
                ],
                "campaign": "夜游特惠",
                "campaignHidden": false,
                "rightFooter": "浦东新区",
                "image": "/upstream/images/scenic-oriental-pearl.svg",
            ])
    }

    @Test func scenicCellWithoutCampaignHidesIt() {
        var spot = Self.spot
        spot.campaignTag = ""
        let cell = ScenicCellViewModel(scenic: spot, city: CurrentCity(id: 10))
        #expect(cell.campaign == "")
        #expect(cell.campaignHidden)
    }

    @Test func scenicFooterShowsTheCityNameElsewhere() {
        let cell = ScenicCellViewModel(scenic: Self.spot, city: CurrentCity(id: 1))
        #expect(cell.rightFooter == "上海")
    }

    @Test func scenicFooterFollowsTheCurrentCityLive() {
        let city = CurrentCity(id: 1)
        let cells = [ScenicCellViewModel(scenic: Self.spot, city: city), ScenicCellViewModel(scenic: Self.spot, city: city)]
        let changes = ChangeCounter()
        for cell in cells {
            withObservationTracking {
                _ = cell.outputs
            } onChange: {
                changes.increment()
            }
        }
        #expect(cells.map(\.rightFooter) == ["上海", "上海"])

        city.id = 10

        #expect(changes.count == 2)
        #expect(cells.map(\.rightFooter) == ["浦东新区", "浦东新区"])
    }

    @Test func hotelCellMapsTheHotel() {
        let cell = HotelCellViewModel(hotel: Self.hotel)
        #expect(cell.id == "hotel-h2001")
        #expect(
            cell.outputs == [
                "kind": "hotel",
                "title": "北京王府井希尔顿酒店",
                "price": nil,
                "campaign": "免费WiFi",
                "campaignHidden": false,
                "rightFooter": nil,
                "image": "/upstream/images/hotel-wangfujing-hilton.svg",
            ])
    }

    @Test func hotelWithoutTagsHidesTheCampaign() {
        var hotel = Self.hotel
        hotel.poiAttrTagList = []
        let cell = HotelCellViewModel(hotel: hotel)
        #expect(cell.campaign == "")
        #expect(cell.campaignHidden)
    }

    @Test(arguments: [
        (128.5, "128.50", "128.5", "0"), (60, "60.00", "60.0", "0"), (0, "0.00", "0.0", "0"),
        (38.8, "38.80", "38.8", "0"), (250.99, "250.99", "250.9", "9"), (1.005, "1.00", "1.0", "0"),
    ])
    func priceIsTwoDecimalsWithASmallLastCharacter(price: Double, text: String, head: String, tail: String) {
        let rich = ListRules.price(lowestPrice: price)
        #expect(rich.text == text)
        #expect(
            rich.runs == [
                RichText.Run(text: head, color: "blue"),
                RichText.Run(text: tail, color: "blue", fontSize: 10),
            ])
    }

    @Test func upstreamErrorsShowAsUpstreamFailures() {
        let failure = ExecutionFailure(UpstreamError.badNetwork(.travel))
        #expect(failure == ExecutionFailure(message: "Bad Network", code: 500, origin: .upstream))
        #expect(failure.json == ["message": "Bad Network", "code": 500, "origin": "upstream"])
    }
}

/// Counts Observation change callbacks, which arrive through `@Sendable` closures.
final class ChangeCounter: Sendable {
    private let value = Mutex(0)
    var count: Int { value.withLock { $0 } }
    func increment() { value.withLock { $0 += 1 } }
}
