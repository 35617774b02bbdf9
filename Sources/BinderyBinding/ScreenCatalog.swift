import BinderyHTTP
import Foundation

/// `GET /api/views`: the screens a client can open, with their API paths and page URLs.
struct ScreenCatalog: HTTPResponder {
    /// One screen in the catalogue.
    struct Screen: Encodable, Sendable {
        let path: String
        let title: String
        let url: String
        let api: String
    }

    private let body: [UInt8]

    /// Encodes the catalogue once.
    init(screens: [(path: String, title: String)]) {
        let list = screens.map { Screen(path: $0.path, title: $0.title, url: "/\($0.path)", api: "/api/views/\($0.path)") }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        body = (try? Array(encoder.encode(["views": list]))) ?? []
    }

    func respondImmediately(to request: Request) -> Response? {
        .json(body, headers: [.cacheControl: "no-cache"])
    }

    func respond(to request: Request) async throws -> Response {
        .json(body, headers: [.cacheControl: "no-cache"])
    }
}
