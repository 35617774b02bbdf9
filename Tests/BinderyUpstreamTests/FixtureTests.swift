import BinderyUpstream
import Testing

@Suite("Fixtures decode into models")
struct FixtureTests {
    let provider = UpstreamProvider(settings: .uniform())

    @Test func scenicSpotsMapKeysAndRewriteImages() async throws {
        let spots = try await provider.travel()
        #expect(spots.count == 24)
        let first = try #require(spots.first)
        #expect(
            first
                == ScenicSpot(
                    id: "s1001", name: "故宫博物院", cityId: 1, cityName: "北京", areaName: "东城区",
                    frontImageURL: "/upstream/images/scenic-gugong.svg", lowestPrice: 60, campaignTag: "限时特惠"
                ))
        #expect(spots.contains { $0.campaignTag.isEmpty })
        #expect(spots.contains { !$0.campaignTag.isEmpty })
        #expect(spots.contains { $0.lowestPrice != $0.lowestPrice.rounded() })
        #expect(Set(spots.map(\.cityId)).count >= 5)
        #expect(Set(spots.map(\.id)).count == spots.count)
        #expect(spots.allSatisfy { $0.frontImageURL.hasPrefix("/upstream/images/scenic-") })
    }

    @Test func hotelsMapKeys() async throws {
        let hotels = try await provider.hotels()
        #expect(hotels.count == 18)
        let first = try #require(hotels.first)
        #expect(
            first
                == Hotel(
                    id: "h2001", name: "北京王府井希尔顿酒店", cityId: 1, cityName: "北京",
                    frontImageURL: "/upstream/images/hotel-wangfujing-hilton.svg", poiAttrTagList: ["免费WiFi", "含早餐"]
                ))
        #expect(hotels.contains { $0.poiAttrTagList.isEmpty })
        #expect(hotels.contains { !$0.poiAttrTagList.isEmpty })
        #expect(Set(hotels.map(\.id)).count == hotels.count)
    }

    @Test func coursesMapTheMarshalModelWithLessonCountsAroundTheRule() async throws {
        let courses = try await provider.courses()
        #expect((8...12).contains(courses.count))
        #expect(courses.first == Course(id: "c01", name: "iOS 開發入門", lessonCount: 24))
        #expect(courses.contains { $0.lessonCount == 35 })
        #expect(courses.contains { $0.lessonCount == 36 })
        #expect(courses.contains { $0.lessonCount < 35 })
        #expect(courses.contains { $0.lessonCount > 36 })
        #expect(Set(courses.map(\.id)).count == courses.count)
    }

    @Test func everyCityOfSpotsAndHotelsIsListed() async throws {
        let cities = Dictionary(uniqueKeysWithValues: provider.cities.map { ($0.id, $0.name) })
        #expect(cities.count == 7)
        #expect(cities[1] == "北京")
        for spot in try await provider.travel() {
            #expect(cities[spot.cityId] == spot.cityName)
        }
        for hotel in try await provider.hotels() {
            #expect(cities[hotel.cityId] == hotel.cityName)
        }
    }

    @Test func photosMapNestedKeyPaths() async throws {
        let photos = try await provider.photos()
        #expect(photos.count == 24)
        #expect(
            photos.first
                == Photo(
                    id: "p01", name: "Sunrise over the Li River", photographer: "Chen Jing",
                    thumbnailURL: "/upstream/images/photo-p01-thumb.svg"
                ))
        #expect(Set(photos.map(\.id)).count == photos.count)
    }

    @Test func everyPhotoHasDetails() async throws {
        for photo in try await provider.photos() {
            let details = try await provider.photoDetails(id: photo.id)
            #expect(details.id == photo.id)
            #expect(details.name == photo.name)
            #expect(details.fullSizeURL == "/upstream/images/photo-\(photo.id)-full.svg")
            #expect(details.width >= 800 && details.height >= 800)
        }
    }

    @Test func unknownPhotoIsNotFound() async {
        await #expect(throws: UpstreamError.notFound(.photoDetails)) {
            try await provider.photoDetails(id: "p99")
        }
        await #expect(throws: UpstreamError.notFound(.photoDetails)) {
            try await provider.photoDetails(id: "../travel")
        }
    }

    @Test func imageBaseURLIsConfigurable() async throws {
        let provider = UpstreamProvider(settings: .uniform(), imageBaseURL: "https://cdn.example/img/")
        let spots = try await provider.travel()
        #expect(spots.first?.frontImageURL == "https://cdn.example/img/scenic-gugong.svg")
        #expect(provider.imageBaseURL == "https://cdn.example/img/")
    }
}
