import Bindery
import Observation

/// Sends reminders to guests; the view model's dependency, a live value and a test value.
struct Mailer: Sendable {
    var send: @Sendable (_ names: [String]) async throws -> Void
}

/// A guest list: its title, its seats, who is invited and who has arrived.
@Observable
final class GuestListViewModel: ViewModel {
    struct Guest: Codable, Sendable {
        let id: String
        let name: String
        var arrived = false
    }

    let commandStates = CommandStates()
    var title = "Party"
    var seats = 3
    var guests: [Guest] = []
    var lastID = 0
    var reminded = 0
    @ObservationIgnored let mailer: Mailer
    @ObservationIgnored private var pages: [String: GuestViewModel] = [:]

    init(mailer: Mailer) {
        self.mailer = mailer
    }

    var seatsLeft: Int { seats - guests.count }
    var waiting: [String] { guests.filter { !$0.arrived }.map(\.name) }

    /// The page of guest `id`, made once and kept; nil for an id nobody has.
    func page(id: String) -> GuestViewModel? {
        guard guests.contains(where: { $0.id == id }) else { return nil }
        if let page = pages[id] { return page }
        let page = GuestViewModel(list: self, id: id)
        pages[id] = page
        return page
    }

    struct Invitation: CommandArgument {
        let name: String
        static let schema = Schema.named("Invitation", .object(["name": .string(maxLength: 60, pattern: "\\S")]))
    }

    static let guest = Schema.named("Guest", .object(["id": .text, "name": .text, "arrived": .boolean]))

    static let declaration = ViewModelDeclaration<GuestListViewModel>(
        "GuestList",
        summary: "Who is invited, and how many seats are left.",
        inputs: [
            .string("title", \.title, maxLength: 80),
            .integer("seats", \.seats, in: 1...500) { model, seats in
                seats < model.guests.count ? "must be at least \(model.guests.count), the guests invited" : nil
            },
        ],
        outputs: [
            .integer("seatsLeft") { $0.seatsLeft },
            .integer("reminded") { $0.reminded },
            .init("guests", schema: .array(guest)) { model in
                .array(model.guests.map { ["id": .string($0.id), "name": .string($0.name), "arrived": .bool($0.arrived)] })
            },
        ],
        commands: [
            .immediate(
                "invite", summary: "Invites a guest; while a seat is left.", argument: Invitation.self,
                enabled: {
                    $0.seatsLeft > 0
                }
            ) { model, invitation throws(ViewModelError) in
                guard !model.guests.contains(where: { $0.name == invitation.name }) else {
                    throw .invalidArgument(command: "invite", reason: "\(invitation.name) is invited already")
                }
                model.lastID += 1
                model.guests.append(Guest(id: "g\(model.lastID)", name: invitation.name))
                return .none
            },
            .deferred("remind", summary: "Mails the guests who have not arrived.", enabled: { !$0.waiting.isEmpty }) {
                model, _ throws(ViewModelError) in
                let names = model.waiting
                return {
                    try await model.mailer.send(names)
                    model.reminded += names.count
                    return .none
                }
            },
        ],
        children: [
            ChildRoute(
                "guest", title: "Guest", titleMember: "name", segment: "guests", parameter: "id", parameterSchema: .text,
                child: GuestViewModel.declaration.schema, resolve: { model, id in model.page(id: id) }
            )
        ],
        persists: .inputs(and: [.value("guests", \.guests), .value("lastID", \.lastID), .value("reminded", \.reminded)])
    )
}

/// One guest's page, `guestlist/guests/{id}`: made by the list, gone once the guest is.
@Observable
final class GuestViewModel: ViewModel {
    let commandStates = CommandStates()
    let id: String
    @ObservationIgnored private weak var list: GuestListViewModel?

    init(list: GuestListViewModel, id: String) {
        self.list = list
        self.id = id
    }

    var guest: GuestListViewModel.Guest? { list?.guests.first { $0.id == id } }
    var isGone: Bool { guest == nil }

    static let declaration = ViewModelDeclaration<GuestViewModel>(
        "Guest",
        summary: "One guest.",
        outputs: [
            .string("name") { $0.guest?.name ?? "" },
            .boolean("arrived") { $0.guest?.arrived ?? false },
        ],
        commands: [
            .immediate("arrive", summary: "Marks the guest arrived.", enabled: { $0.guest?.arrived == false }) { model, _ in
                guard let list = model.list, let index = list.guests.firstIndex(where: { $0.id == model.id }) else {
                    return .none
                }
                list.guests[index].arrived = true
                return .none
            }
        ]
    )
}
