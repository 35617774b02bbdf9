import BinderyHTTP
import Foundation

/// `GET /api/views`: the screens a client can open, with their API paths and page URLs, and the
/// child screens each one leads to (URL patterns with typed parameters), so that a client builds
/// its routes and navigation from it.
struct ScreenCatalog: HTTPResponder {
    /// One screen in the catalogue.
    struct Screen: Encodable, Sendable {
        let name: String
        let path: String
        let title: String
        let url: String
        let api: String
        let viewModel: String
        let children: [Child]

        /// A screen at `path`, named after it, whose page and API URLs follow from it.
        init(path: String, title: String, viewModel: String, children: [Child]) {
            self.name = path
            self.path = path
            self.title = title
            self.url = "/\(path)"
            self.api = "/api/views/\(path)"
            self.viewModel = viewModel
            self.children = children
        }
    }

    /// A screen reached from another one, at a path pattern such as `list/items/{id}`.
    struct Child: Encodable, Sendable {
        let name: String
        let title: String
        /// The snapshot member that titles one instance (`title`), when there is one.
        let titleMember: String?
        let pattern: String
        let url: String
        let api: String
        let viewModel: String
        let parameters: [String: Parameter]

        /// A child screen whose page and API URL patterns follow from `pattern`.
        init(
            name: String, title: String, titleMember: String?, pattern: String, viewModel: String,
            parameters: [String: Parameter]
        ) {
            self.name = name
            self.title = title
            self.titleMember = titleMember
            self.pattern = pattern
            self.url = "/\(pattern)"
            self.api = "/api/views/\(pattern)"
            self.viewModel = viewModel
            self.parameters = parameters
        }
    }

    /// One `{parameter}` of a child's pattern, as a JSON Schema (`type`, `minimum`).
    struct Parameter: Encodable, Sendable {
        let type: String
        var minimum: Int?
    }

    private let body: [UInt8]

    /// Encodes the catalogue once.
    init(screens: [Screen]) {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        body = (try? Array(encoder.encode(["views": screens]))) ?? []
    }

    func respondImmediately(to request: Request) -> Response? {
        .json(body, headers: [.cacheControl: "no-cache"])
    }

    func respond(to request: Request) async throws -> Response {
        .json(body, headers: [.cacheControl: "no-cache"])
    }
}

extension ScreenCatalog {
    /// Temporary, until view models declare themselves (issue 9): the screens of `roots` with
    /// their view-model types and child screens, written out here.
    static func interim(_ roots: [(path: String, title: String)]) -> [Screen] {
        roots.map { root in
            let details = interimDetails[root.path] ?? (viewModel: root.path, children: [])
            return Screen(path: root.path, title: root.title, viewModel: details.viewModel, children: details.children)
        }
    }

    private static let interimDetails: [String: (viewModel: String, children: [Child])] = [
        "form": ("Form", []),
        "list": (
            "List",
            [
                Child(
                    name: "item", title: "Place", titleMember: "title", pattern: "list/items/{id}",
                    viewModel: "POICell", parameters: ["id": Parameter(type: "string")]
                ),
            ]
        ),
        "gallery": (
            "Gallery",
            [
                Child(
                    name: "photo", title: "Photo", titleMember: "initialPhotoName", pattern: "gallery/photos/{index}",
                    viewModel: "FullSizePhoto", parameters: ["index": Parameter(type: "integer", minimum: 0)]
                ),
            ]
        ),
    ]
}
