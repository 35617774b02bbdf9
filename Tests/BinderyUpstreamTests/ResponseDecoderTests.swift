import BinderyUpstream
import Foundation
import Testing

@Suite("The network layer decodes {\"data\": ...}")
struct ResponseDecoderTests {
    let decoder = UpstreamResponseDecoder(imageBaseURL: "/img")

    @Test func decodesTheDataOfAnEnvelope() throws {
        let body = Data(#"{"data": [{"cityId": 10, "cityName": "上海"}], "extra": true}"#.utf8)
        #expect(try decoder.decode([City].self, from: body, endpoint: .travel) == [City(id: 10, name: "上海")])
    }

    @Test func resolvesImageNamesLikeMantlesURLTransformer() throws {
        let body = Data(
            #"""
            {"data": {"id": "p1", "name": "n", "image_url": "photo-p1-full", "width": 10, "height": 20}}
            """#.utf8)
        let details = try decoder.decode(PhotoDetails.self, from: body, endpoint: .photoDetails)
        #expect(details.fullSizeURL == "/img/photo-p1-full.svg")
        let raw = try UpstreamResponseDecoder().decode(PhotoDetails.self, from: body, endpoint: .photoDetails)
        #expect(raw.fullSizeURL == "photo-p1-full")
    }

    @Test func missingDataIsErrorJSONData() {
        #expect(throws: UpstreamError(endpoint: .travel, code: 502, message: "Error JSON Data")) {
            try decoder.decode([ScenicSpot].self, from: Data(#"{"foo": 1}"#.utf8), endpoint: .travel)
        }
    }

    @Test(arguments: [
        "",
        "{\"data\": [",
        "<html>502</html>",
        "[1, 2]",
        "{\"data\": {\"cityId\": 1}}",
        "{\"data\": [{\"cityId\": \"one\", \"cityName\": \"x\"}]}",
        "{\"data\": null}",
    ])
    func malformedBodiesAreErrorJSONData(body: String) {
        #expect(throws: UpstreamError.badJSON(.hotel)) {
            try decoder.decode([City].self, from: Data(body.utf8), endpoint: .hotel)
        }
    }
}
