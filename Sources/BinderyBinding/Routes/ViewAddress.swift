import BinderyRuntime
import HTTPTypes

/// What a URL under `/api/views/` addresses: a view model, its events, its presence, one of its
/// commands, or one of its collaborative texts.
enum ViewAddress: Equatable {
    /// `/api/views/{path}`.
    case snapshot(path: String)
    /// `/api/views/{path}/events`.
    case events(path: String)
    /// `/api/views/{path}/presence`: who is on this screen.
    case presence(path: String)
    /// `/api/views/{path}/versions`: the versions the store's log keeps (an inspector's timeline).
    case versions(path: String)
    /// `/api/views/{path}/commands/{name}`.
    case command(path: String, name: String)
    /// `/api/views/{path}/commands/{name}/cancel`.
    case cancel(path: String, name: String)
    /// `/api/views/{path}/inputs/{name}`: a collaborative text and its revision.
    case text(path: String, name: String)
    /// `/api/views/{path}/inputs/{name}/ops`: an edit of a collaborative text.
    case textOps(path: String, name: String)

    /// Parses the part of the URL after `/api/views/`.
    init?(_ rest: String) {
        // The common case, a top-level view model ("form"): one segment, nothing to split.
        if !rest.isEmpty, !rest.utf8.contains(UInt8(ascii: "/")) {
            self = .snapshot(path: rest)
            return
        }
        let segments = rest.split(separator: "/", omittingEmptySubsequences: false)
        guard !segments.isEmpty, !segments.contains(where: \.isEmpty) else { return nil }
        if segments.count >= 2, segments[segments.count - 1] == "events" {
            self = .events(path: segments.dropLast().joined(separator: "/"))
        } else if segments.count >= 2, segments[segments.count - 1] == "presence" {
            self = .presence(path: segments.dropLast().joined(separator: "/"))
        } else if segments.count >= 2, segments[segments.count - 1] == "versions" {
            self = .versions(path: segments.dropLast().joined(separator: "/"))
        } else if segments.count >= 4, segments[segments.count - 1] == "cancel", segments[segments.count - 3] == "commands" {
            self = .cancel(path: segments.dropLast(3).joined(separator: "/"), name: String(segments[segments.count - 2]))
        } else if segments.count >= 3, segments[segments.count - 2] == "commands" {
            self = .command(path: segments.dropLast(2).joined(separator: "/"), name: String(segments[segments.count - 1]))
        } else if segments.count >= 4, segments[segments.count - 1] == "ops", segments[segments.count - 3] == "inputs" {
            self = .textOps(path: segments.dropLast(3).joined(separator: "/"), name: String(segments[segments.count - 2]))
        } else if segments.count >= 3, segments[segments.count - 2] == "inputs" {
            self = .text(path: segments.dropLast(2).joined(separator: "/"), name: String(segments[segments.count - 1]))
        } else {
            self = .snapshot(path: rest)
        }
    }

    /// The route pattern for logs and metrics.
    var route: String {
        switch self {
        case .snapshot: "/api/views/{path}"
        case .events: "/api/views/{path}/events"
        case .presence: "/api/views/{path}/presence"
        case .versions: "/api/views/{path}/versions"
        case .command: "/api/views/{path}/commands/{name}"
        case .cancel: "/api/views/{path}/commands/{name}/cancel"
        case .text: "/api/views/{path}/inputs/{name}"
        case .textOps: "/api/views/{path}/inputs/{name}/ops"
        }
    }

    /// The view model's path.
    var path: String {
        switch self {
        case .snapshot(let path), .events(let path), .presence(let path), .versions(let path), .command(let path, _),
            .cancel(let path, _), .text(let path, _), .textOps(let path, _):
            path
        }
    }

    /// The methods this address answers, for `Allow`: a snapshot takes PATCH only when its view
    /// model has inputs (`schema`, when the path matches a declared route).
    func allowedMethods(of schema: ViewModelSchema?) -> [HTTPRequest.Method] {
        switch self {
        case .snapshot: schema.map { $0.inputs.isEmpty } == true ? [.get, .head] : [.get, .head, .patch]
        case .events: [.get]
        case .presence: [.get, .put, .delete]
        case .text, .versions: [.get, .head]
        case .command, .cancel, .textOps: [.post]
        }
    }
}
