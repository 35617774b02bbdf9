import Bindery
import BinderyUpstream
import Observation

/// The POI list of seed 000 Demo 1 (`Demo1ViewModel`): scenic spots and hotels in one list of
/// cells, loaded together by the `load` command.
///
/// `load` fetches both concurrently and succeeds only if both do (the seed's `zipWith:`); the
/// cells are built once per successful load and stay the same objects until the next one, so
/// `list/items/<id>` serves a stable view model. Loading is not started by activation: the
/// client executes `load` (the seed's `viewDidLoad`), and again to refresh (pull-to-refresh).
@Observable
public final class ListViewModel: ViewModel {
    /// The session's current city, shared with the scenic cells.
    public let city: CurrentCity
    /// The cities the user can be in, from the upstream.
    public let cities: [City]
    /// The cells of the last successful load: scenic spots first, then hotels.
    public private(set) var cells: [any POICellViewModel] = []
    /// The failure of the last load (the seed's `errorSignal`); nil once a load starts.
    public private(set) var error: ExecutionFailure?

    /// The live state of `load` and `select`.
    public let commandStates = CommandStates()

    @ObservationIgnored private let upstream: UpstreamProvider
    /// What the last successful load fetched, kept so a restart can rebuild the cells.
    @ObservationIgnored private(set) var lastLoad: (spots: [ScenicSpot], hotels: [Hotel])?

    /// Creates the list; the current city defaults to the upstream's first city.
    public init(upstream: UpstreamProvider, currentCityId: Int? = nil) {
        self.upstream = upstream
        cities = upstream.cities
        city = CurrentCity(id: currentCityId ?? upstream.cities.first?.id ?? 0)
    }

    /// The id of the user's current city (two-way); scenic cells' footers follow it.
    public var currentCityId: Int {
        get { city.id }
        set { city.id = newValue }
    }

    /// Input `currentCityId`; outputs `cities`, `items` (the cells) and `error`; commands `load`
    /// and `select`; child route `items/{id}`.
    public static let declaration = ViewModelDeclaration<ListViewModel>(
        "List",
        summary: "The POI list (seed 000 Demo 1): scenic spots and hotels loaded together, cells in one shape.",
        inputs: [
            .integer("currentCityId", \.currentCityId) { model, id in model.knowsCity(id) ? nil : "no city has id \(id)" }
        ],
        outputs: [
            .init("cities", schema: .array(.named("City", .object(["id": .int, "name": .text])))) { model in
                .array(model.cities.map { .object(["id": .int($0.id), "name": .string($0.name)]) })
            },
            .children("items", of: ViewModelDeclaration<ScenicCellViewModel>.poiCell.schema, route: "item") { model in
                model.cells.map { (id: $0.id, viewModel: $0) }
            },
            .failure("error") { $0.error },
        ],
        commands: [
            .deferred(
                "load", summary: "Fetches scenic spots and hotels together; on failure the items are cleared and `error` is set.",
                prepare: { model, _ in
                    {
                        try await model.reload(); return .none
                    }
                }
            ),
            .immediate(
                "select", summary: "Opens a cell: answers the cell's page.",
                argument: SelectItem.self, navigates: true,
                run: { model, argument throws(ViewModelError) in
                    let cell = try model.cell(selectedBy: argument)
                    return CommandResult(navigate: model.page(to: ListRules.route(for: cell.kind), cell.id))
                }
            ),
        ],
        children: [
            ChildRoute(
                "item", title: "Place", titleMember: "title", segment: "items", parameter: "id",
                parameterSchema: .text, child: ViewModelDeclaration<ScenicCellViewModel>.poiCell.schema,
                resolve: { model, id in model.cell(id: id) },
                prepare: { model in await model.loadIfEmpty() }
            )
        ],
        persists: persistence
    )

    /// Whether `id` is one of ``cities`` (any id while the upstream knows none).
    func knowsCity(_ id: Int) -> Bool {
        cities.isEmpty || cities.contains { $0.id == id }
    }

    /// Runs `load` when no cell is there yet, so that a shared item URL works in a new session.
    /// While a load runs, nothing more is started; a failed load leaves no cells.
    func loadIfEmpty(isolation: isolated (any Actor)? = #isolation) async {
        guard cells.isEmpty else { return }
        _ = try? await execute("load", isolation: isolation)
    }

    /// The cell with `id`, if the last load produced one: a scan of a few dozen cells, cheaper
    /// than every session keeping an index of them.
    public func cell(id: String) -> (any POICellViewModel)? {
        cells.first { $0.id == id }
    }

    /// Loads both kinds concurrently and replaces the cells; clears them on failure.
    ///
    /// Both calls run at once (`async let`); the load waits for the travel call first, then
    /// the hotel call, and fails with the first failure it sees. A cancelled load changes
    /// neither the cells nor `error`: it leaves the list as it was.
    private func reload() async throws {
        let previousError = error
        error = nil
        let upstream = upstream
        let spots: [ScenicSpot]
        let hotels: [Hotel]
        do {
            async let travelCall = upstream.travel()
            async let hotelCall = upstream.hotels()
            spots = try await travelCall
            hotels = try await hotelCall
        } catch {
            if Task.isCancelled || (error as? UpstreamError)?.isCancellation == true {
                self.error = previousError
                throw error
            }
            replaceCells(with: [])
            lastLoad = nil
            self.error = ExecutionFailure(error)
            throw error
        }
        if Task.isCancelled {
            self.error = previousError
            throw CancellationError()
        }
        install(spots: spots, hotels: hotels)
    }

    /// Builds the cells of a load: scenic spots first, then hotels.
    func install(spots: [ScenicSpot], hotels: [Hotel]) {
        lastLoad = (spots, hotels)
        let city = city
        replaceCells(
            with: spots.indices.map { ScenicCellViewModel(spots: spots, index: $0, city: city) }
                + hotels.indices.map { HotelCellViewModel(hotels: hotels, index: $0) }
        )
    }

    /// Removes every cell and forgets the last load (state restored to "never loaded").
    func clearItems() {
        lastLoad = nil
        replaceCells(with: [])
    }

    /// Puts back the error of the last load (after a restart).
    func restoreError(_ failure: ExecutionFailure?) {
        error = failure
    }

    /// Installs `newCells`, keeping the first cell of any repeated id.
    private func replaceCells(with newCells: [any POICellViewModel]) {
        var seen: Set<String> = []
        cells = newCells.filter { seen.insert($0.id).inserted }
    }

    /// The cell named by a `select` argument, or the reason it names none.
    private func cell(selectedBy argument: SelectItem) throws(ViewModelError) -> any POICellViewModel {
        guard let cell = cell(id: argument.id) else {
            throw .invalidArgument(command: "select", reason: "no item has id \"\(argument.id)\"")
        }
        return cell
    }

    /// `select`'s argument: the cell's id.
    struct SelectItem: CommandArgument {
        let id: String
        static let schema = Schema.named("SelectItemArgument", .object(["id": .text]))
    }
}
