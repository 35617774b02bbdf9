import Bindery
import Observation

// Three builds of one app, as three deploys would ship it: a tally that keeps a count and a list
// of items, then the same tally after `count` became `total` and each item's `title` became
// `text` — once without the migration (a developer who forgot) and once with it.

/// An item as the first build stores it.
struct TallyItemV1: Codable, Sendable, Equatable {
    var title: String
}

/// An item after its `title` was renamed `text`.
struct TallyItemV2: Codable, Sendable, Equatable {
    var text: String
}

/// The first build: `count` and `items` of titles.
@Observable
final class TallyV1: ViewModel {
    var label = ""
    var count = 0
    var items: [TallyItemV1] = []
    let commandStates = CommandStates()

    static let declaration = ViewModelDeclaration<TallyV1>(
        "Tally", summary: "Counts and lists what was added.",
        inputs: [.string("label", \.label, maxLength: 40)],
        outputs: [
            .integer("count") { $0.count },
            .init("items", schema: .array(.text)) { .array($0.items.map { .string($0.title) }) },
        ],
        commands: [
            .immediate("add", summary: "Adds one item.") { model, _ in
                model.count += 1
                model.items.append(TallyItemV1(title: "item \(model.count)"))
                return .none
            }
        ],
        persists: .inputs(and: [.value("count", \.count), .value("items", \.items)])
    )
}

/// The renamed tally: `total`, items with texts, declared with or without the migration.
protocol RenamedTally: ViewModel {
    var label: String { get set }
    var total: Int { get set }
    var items: [TallyItemV2] { get set }
}

extension RenamedTally {
    /// The renamed build's declaration, with `migrations`.
    static func renamedDeclaration(migrations: [PersistedMigration]) -> ViewModelDeclaration<Self> {
        ViewModelDeclaration<Self>(
            "Tally", summary: "Counts and lists what was added.",
            inputs: [.string("label", \.label, maxLength: 40)],
            outputs: [
                .integer("count") { $0.total },
                .init("items", schema: .array(.text)) { .array($0.items.map { .string($0.text) }) },
            ],
            commands: [
                .immediate("add", summary: "Adds one item.") { model, _ in
                    model.total += 1
                    model.items.append(TallyItemV2(text: "item \(model.total)"))
                    return .none
                }
            ],
            persists: .inputs(and: [.value("total", \.total), .value("items", \.items)]).migrations(migrations)
        )
    }
}

/// The renamed build without migrations: its start must stop, nothing lost.
@Observable
final class TallyV2Unmigrated: RenamedTally {
    var label = ""
    var total = 0
    var items: [TallyItemV2] = []
    let commandStates = CommandStates()

    static let declaration = renamedDeclaration(migrations: [])
}

/// The renamed build with its migration: every stored tally is read through it.
@Observable
final class TallyV2: RenamedTally {
    var label = ""
    var total = 0
    var items: [TallyItemV2] = []
    let commandStates = CommandStates()

    /// Version 1 → 2: `count` is `total`, each item's `title` its `text`.
    static let migrations: [PersistedMigration] = [
        .renaming("count", to: "total"),
        .updating("items") { items in
            .array(
                (items.arrayValue ?? []).map { item in
                    guard case .object(var fields) = item, let title = fields.removeValue(forKey: "title") else { return item }
                    fields["text"] = title
                    return .object(fields)
                })
        },
    ]

    static let declaration = renamedDeclaration(migrations: migrations)
}
