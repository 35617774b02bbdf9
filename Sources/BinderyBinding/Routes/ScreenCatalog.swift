import BinderyHTTP
import BinderyRuntime
import Foundation

/// `GET /api/views`: the screens a client can open, with their API paths, page URLs and child
/// routes, all from the screens' declarations; the thin client builds its routes and its
/// navigation from this.
///
/// Each entry says who may read it and who may write it (`readAccess`, `writeAccess`: whether
/// sign-in is needed, which roles, whether a rule also depends on the view model); a child's read
/// access includes its parents'. The catalogue a session gets lists only what its user may read
/// (a rule that depends on the view model counts as may); the page carries the whole one, which
/// the client filters the same way.
struct ScreenCatalog: HTTPResponder {
    /// Every entry, whoever asks.
    let entries: [Entry]
    /// The whole catalogue as JSON, `{"views": [...]}` (the page's).
    let body: [UInt8]
    /// What an anonymous client gets.
    private let anonymousBody: [UInt8]
    /// Finds the requesting session, whose user decides what is listed.
    let resolver: SessionResolver?

    /// One screen and what may read its entries.
    struct Entry {
        /// The screen's JSON, its children included (each with its read access).
        let screen: [String: JSONValue]
        /// Who may read the screen.
        let readAccess: AccessSummary
        /// Each child's JSON and who may read it (its parents' rules included).
        let children: [(json: JSONValue, readAccess: AccessSummary)]
    }

    /// Encodes the catalogue of `screens`; `resolver` tells whose it is (nil: always the whole).
    init(screens: [Screen], resolver: SessionResolver? = nil) {
        entries = screens.map { screen in
            let schema = screen.schema
            return Entry(
                screen: [
                    "name": .string(screen.name),
                    "path": .string(screen.name),
                    "title": .string(screen.title),
                    "url": .string("/\(screen.name)"),
                    "api": .string("/api/views/\(screen.name)"),
                    "viewModel": .string(schema.name),
                    "sensitiveInputs": Self.sensitiveInputs(of: schema),
                    "latencyBudgets": Self.latencyBudgets(of: schema),
                    "readAccess": schema.readAccess.json,
                    "writeAccess": schema.writeAccess.json,
                ],
                readAccess: schema.readAccess,
                children: Self.children(of: schema, under: screen.name, readable: schema.readAccess)
            )
        }
        self.resolver = resolver
        body = Self.encode(entries, for: nil, filtered: false)
        anonymousBody = Self.encode(entries, for: nil, filtered: true)
    }

    /// The catalogue as `user` (nil: anonymous) may use it; everything when not `filtered`.
    private static func encode(_ entries: [Entry], for user: User?, filtered: Bool) -> [UInt8] {
        let views: [JSONValue] = entries.compactMap { entry in
            guard !filtered || entry.readAccess.admits(user) else { return nil }
            var screen = entry.screen
            screen["children"] = .array(entry.children.filter { !filtered || $0.readAccess.admits(user) }.map(\.json))
            return .object(screen)
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return (try? Array(encoder.encode(JSONValue.object(["views": .array(views)])))) ?? []
    }

    /// Every child route below `schema`, with full patterns (`list/items/{id}`), depth first; each
    /// readable by who may read it and everything above it (`readable`).
    static func children(
        of schema: ViewModelSchema, under prefix: String, readable: AccessSummary
    ) -> [(json: JSONValue, readAccess: AccessSummary)] {
        schema.children.flatMap { child -> [(json: JSONValue, readAccess: AccessSummary)] in
            let pattern = "\(prefix)/\(child.pattern)"
            let readAccess = readable.combined(with: child.viewModel.readAccess)
            var entry: [String: JSONValue] = [
                "name": .string(child.name),
                "title": .string(child.title),
                "pattern": .string(pattern),
                "url": .string("/\(pattern)"),
                "api": .string("/api/views/\(pattern)"),
                "viewModel": .string(child.viewModel.name),
                "sensitiveInputs": sensitiveInputs(of: child.viewModel),
                "latencyBudgets": latencyBudgets(of: child.viewModel),
                "parameters": .object(child.hasParameter ? [child.parameter: child.parameterSchema.jsonSchema()] : [:]),
                "readAccess": readAccess.json,
                "writeAccess": child.viewModel.writeAccess.json,
            ]
            if let titleMember = child.titleMember { entry["titleMember"] = .string(titleMember) }
            return [(.object(entry), readAccess)] + children(of: child.viewModel, under: pattern, readable: readAccess)
        }
    }

    /// The names of the inputs tools mask (``InputDeclaration/sensitive()``).
    static func sensitiveInputs(of schema: ViewModelSchema) -> JSONValue {
        .array(schema.inputs.filter(\.isSensitive).map { .string($0.name) })
    }

    /// The declared latency budgets (``ViewModelDeclaration/latencyBudget(_:)``), for the
    /// inspector: `[{"measure": "write_to_push", "limitMs": 25, "percentile": 99}]`.
    static func latencyBudgets(of schema: ViewModelSchema) -> JSONValue {
        .array(
            schema.latencyBudgets.map { budget in
                let milliseconds = Double(budget.limit.nanoseconds) / 1_000_000
                return [
                    "measure": .string(budget.measure.rawValue), "limitMs": number(milliseconds),
                    "percentile": number(budget.percentile),
                ]
            })
    }

    /// A whole number as an integer, anything else as a double.
    private static func number(_ value: Double) -> JSONValue {
        value.rounded() == value && abs(value) < 9.0e15 ? .int(Int(value)) : .double(value)
    }

    /// Without a session the anonymous catalogue; with one in memory, its user's; else (a session
    /// to restore first) nil.
    func respondImmediately(to request: Request) -> Response? {
        guard let resolver else { return answer(body) }
        guard resolver.hasCredential(request) else { return answer(anonymousBody) }
        guard let session = resolver.existing(for: request) else { return nil }
        return answer(session.user == nil ? anonymousBody : Self.encode(entries, for: session.user, filtered: true))
    }

    func respond(to request: Request) async throws -> Response {
        guard let resolver else { return answer(body) }
        // The catalogue needs no session: an unknown token reads it as anonymous.
        let user = (try? await resolver.existingSession(for: request))??.user
        return answer(user == nil ? anonymousBody : Self.encode(entries, for: user, filtered: true))
    }

    private func answer(_ body: [UInt8]) -> Response {
        .json(body, headers: [.cacheControl: "no-cache, private", .vary: "Cookie, Authorization"])
    }
}
