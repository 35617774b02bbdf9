import BinderyHTTP
import BinderyRuntime
import Foundation

/// `GET /api/views`: the screens a client can open, with their API paths, page URLs and child
/// routes, all from the screens' declarations. The thin client builds its routes and its
/// navigation from this.
struct ScreenCatalog: HTTPResponder {
    /// The catalogue as JSON: `{"views": [...]}`.
    let body: [UInt8]

    /// Encodes the catalogue once.
    init(screens: [Screen]) {
        let views: [JSONValue] = screens.map { screen in
            [
                "name": .string(screen.name),
                "path": .string(screen.name),
                "title": .string(screen.title),
                "url": .string("/\(screen.name)"),
                "api": .string("/api/views/\(screen.name)"),
                "viewModel": .string(screen.schema.name),
                "sensitiveInputs": Self.sensitiveInputs(of: screen.schema),
                "latencyBudgets": Self.latencyBudgets(of: screen.schema),
                "children": .array(Self.children(of: screen.schema, under: screen.name)),
            ]
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        body = (try? Array(encoder.encode(JSONValue.object(["views": .array(views)])))) ?? []
    }

    /// Every child route below `schema`, with full patterns (`list/items/{id}`), depth first.
    static func children(of schema: ViewModelSchema, under prefix: String) -> [JSONValue] {
        schema.children.flatMap { child -> [JSONValue] in
            let pattern = "\(prefix)/\(child.pattern)"
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
            ]
            if let titleMember = child.titleMember { entry["titleMember"] = .string(titleMember) }
            return [.object(entry)] + children(of: child.viewModel, under: pattern)
        }
    }

    /// The names of the inputs tools mask (``InputDeclaration/sensitive()``).
    static func sensitiveInputs(of schema: ViewModelSchema) -> JSONValue {
        .array(schema.inputs.filter(\.isSensitive).map { .string($0.name) })
    }

    /// The declared latency budgets (``ViewModelDeclaration/latencyBudget(_:)``), for the
    /// inspector: `[{"measure": "write_to_push", "limitMs": 25, "percentile": 99}]`.
    static func latencyBudgets(of schema: ViewModelSchema) -> JSONValue {
        .array(schema.latencyBudgets.map { budget in
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

    func respondImmediately(to request: Request) -> Response? {
        .json(body, headers: [.cacheControl: "no-cache"])
    }

    func respond(to request: Request) async throws -> Response {
        .json(body, headers: [.cacheControl: "no-cache"])
    }
}
