import BinderyUpstream
import Foundation
import Testing

@Suite("Images are generated for every fixture image")
struct ImageTests {
    let provider = UpstreamProvider(settings: .uniform())

    /// The image name in a rewritten URL: `/upstream/images/scenic-gugong.svg` -> `scenic-gugong.svg`.
    func name(of url: String) -> String {
        String(url.split(separator: "/").last ?? "")
    }

    @Test func everyFixtureImageExists() async throws {
        var urls = try await provider.travel().map(\.frontImageURL)
        urls += try await provider.hotels().map(\.frontImageURL)
        let photos = try await provider.photos()
        urls += photos.map(\.thumbnailURL)
        for photo in photos {
            urls.append(try await provider.photoDetails(id: photo.id).fullSizeURL)
        }
        #expect(urls.count == 90)
        #expect(provider.imageNames.count == 90)
        for url in urls {
            let image = try #require(provider.image(named: name(of: url)), "no image for \(url)")
            #expect(image.contentType == "image/svg+xml")
            #expect(String(decoding: image.data, as: UTF8.self).hasPrefix("<svg xmlns=\"http://www.w3.org/2000/svg\""))
        }
    }

    @Test func imagesShowTheirNameAndSize() async throws {
        let thumbnail = try #require(provider.image(named: "photo-p03-thumb"))
        #expect(thumbnail.width == 200 && thumbnail.height == 200)
        let details = try await provider.photoDetails(id: "p03")
        let full = try #require(provider.image(named: "photo-p03-full.svg"))
        #expect(full.width == details.width && full.height == details.height)
        #expect(full.width * full.height > 10 * thumbnail.width * thumbnail.height)
        let svg = String(decoding: full.data, as: UTF8.self)
        #expect(svg.contains("Rice Terraces of Yuanyang"))
        #expect(svg.contains("width=\"\(details.width)\""))
        let spot = try #require(provider.image(named: "scenic-gugong"))
        #expect(String(decoding: spot.data, as: UTF8.self).contains("故宫博物院"))
    }

    @Test func imagesAreDeterministic() throws {
        let other = UpstreamProvider()
        for name in provider.imageNames {
            #expect(provider.image(named: name) == other.image(named: name))
        }
        let gugong = try #require(provider.image(named: "scenic-gugong"))
        let badaling = try #require(provider.image(named: "scenic-badaling"))
        #expect(gugong.data != badaling.data)
    }

    @Test func namesWithSpecialCharactersAreEscaped() async throws {
        let hotel = try #require(provider.image(named: "hotel-homeinn-tiananmen"))
        let svg = String(decoding: hotel.data, as: UTF8.self)
        #expect(svg.contains("如家酒店(北京天安门广场店)"))
        #expect(!svg.contains("&") || svg.contains("&amp;"))
    }

    @Test(arguments: ["../x", "..", "a/b", "/etc/passwd", "scenic-gugong/..", "..\\x", "", ".svg", ".hidden", "unknown", "scenic gugong"])
    func unknownAndPathNamesHaveNoImage(name: String) {
        #expect(provider.image(named: name) == nil)
    }
}
