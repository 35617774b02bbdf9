import BinderyHTTP
import Testing

@Suite("Content-Type: is the body JSON?")
struct MediaTypeTests {
    @Test(
        "JSON and +json types, any letter case, parameters and spaces allowed",
        arguments: [
            "application/json", "Application/JSON", " application/merge-patch+json ; charset=utf-8", "application/problem+json",
        ])
    func json(contentType: String) {
        #expect(MediaType.isJSON(contentType))
    }

    // Found by the fuzz target: the subtype split dropped empty parts, so `application//json`,
    // `/application/json` and `application/json/` counted as JSON.
    @Test(
        "Anything but type/subtype tokens naming JSON is not JSON",
        arguments: [
            "application//json", "/application/json", "application/json/", "appli cation/json", "application/+json",
            "text/plain", "json", "application/json5", "",
        ])
    func notJSON(contentType: String) {
        #expect(!MediaType.isJSON(contentType))
    }
}
