import Foundation

/// The raw bodies the fake upstream answers with: the JSON files under `Fixtures/`, read once.
///
/// A missing or unreadable file gives an empty body, which the network layer reports as
/// "Error JSON Data" instead of crashing the service.
struct FixtureStore: Sendable {
    /// `travel.json`: `{"data": [scenic spots]}`.
    var travel: Data
    /// `hotel.json`: `{"data": [hotels]}`.
    var hotel: Data
    /// `photos.json`: `{"data": [photos]}`.
    var photos: Data
    /// `cities.json`: `{"data": [cities]}`.
    var cities: Data
    /// `courses.json`: `{"data": [courses]}`.
    var courses: Data
    /// `accounts.json`: `{"data": [accounts with their password hashes]}`.
    var accounts: Data
    /// `photo-details/<id>.json`: `{"data": photo details}`, by photo id.
    var photoDetails: [String: Data]

    /// Reads the fixtures from `directory` (the `Fixtures` folder).
    init(directory: URL) {
        func read(_ name: String, in folder: URL = directory) -> Data {
            (try? Data(contentsOf: folder.appending(path: name))) ?? Data()
        }
        travel = read("travel.json")
        hotel = read("hotel.json")
        photos = read("photos.json")
        cities = read("cities.json")
        courses = read("courses.json")
        accounts = read("accounts.json")
        let detailsFolder = directory.appending(path: "photo-details")
        let names = (try? FileManager.default.contentsOfDirectory(atPath: detailsFolder.path)) ?? []
        var details: [String: Data] = [:]
        for name in names where name.hasSuffix(".json") {
            details[String(name.dropLast(".json".count))] = read(name, in: detailsFolder)
        }
        photoDetails = details
    }

    /// The fixtures shipped in this module's resource bundle.
    static let bundled = FixtureStore(
        directory: (Bundle.module.resourceURL ?? Bundle.module.bundleURL).appending(path: "Fixtures")
    )
}
