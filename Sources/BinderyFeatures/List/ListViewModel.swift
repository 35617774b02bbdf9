import BinderyRuntime
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

    @ObservationIgnored private let upstream: UpstreamProvider
    @ObservationIgnored private var cellsByID: [String: any POICellViewModel] = [:]

    /// Fetches scenic spots and hotels; on failure the items are cleared and `error` is set.
    @ObservationIgnored public private(set) lazy var load = Command("load", deferred: { [weak self] in
        guard let self else { throw CancellationError() }
        try await reload()
        return .none
    })

    /// Opens a cell: `{"id": "<cell id>"}` answers the cell's page (``ListRules/destination(kind:cellID:)``).
    @ObservationIgnored public private(set) lazy var select = Command("select") { [unowned self] argument throws(ViewModelError) in
        let cell = try cell(selectedBy: argument)
        let target = ListRules.destination(kind: cell.kind, cellID: cell.id)
        return .immediate { CommandResult(navigate: target) }
    }

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

    /// `currentCityId`: an integer, one of ``cities`` when the upstream knows any.
    public var inputs: [Input] {
        let known = Set(cities.map(\.id))
        return [
            Input(name: "currentCityId", read: { [unowned self] in .int(currentCityId) }) { [unowned self] value throws(ViewModelError) in
                guard let id = value.intValue else {
                    throw .invalidInput(name: "currentCityId", reason: "expected an integer, got \(value.typeName)")
                }
                guard known.isEmpty || known.contains(id) else {
                    throw .invalidInput(name: "currentCityId", reason: "no city has id \(id)")
                }
                return { [unowned self] in currentCityId = id }
            },
        ]
    }

    /// `cities` (`[{"id", "name"}]`), `items` (the cells as children) and `error`.
    public var outputs: [String: JSONValue] {
        [
            "cities": .array(cities.map { .object(["id": .int($0.id), "name": .string($0.name)]) }),
            "items": .array(cells.map { $0.childJSON(id: $0.id, path: "list/items/\($0.id)") }),
            "error": error?.json ?? .null,
        ]
    }

    /// `load` and `select`.
    public var commands: [Command] { [load, select] }

    /// `["items", id]`: the cell with that id.
    public func child(at path: ArraySlice<String>) -> (any ViewModel)? {
        guard path.count == 2, path.first == "items", let id = path.last else { return nil }
        return cellsByID[id]
    }

    /// The cell with `id`, if the last load produced one.
    public func cell(id: String) -> (any POICellViewModel)? {
        cellsByID[id]
    }

    /// Loads both kinds concurrently and replaces the cells; clears them on failure.
    ///
    /// Both calls run at once (`async let`); the load waits for the travel call first, then
    /// the hotel call, and fails with the first failure it sees. A cancelled load (the caller
    /// stopped waiting) changes neither the cells nor `error`.
    private func reload() async throws {
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
            if Task.isCancelled || (error as? UpstreamError)?.isCancellation == true { throw error }
            replaceCells(with: [])
            self.error = ExecutionFailure(error)
            throw error
        }
        try Task.checkCancellation()
        let city = city
        replaceCells(with: spots.map { ScenicCellViewModel(scenic: $0, city: city) } + hotels.map(HotelCellViewModel.init))
    }

    /// Installs `newCells`, keeping the first cell of any repeated id.
    private func replaceCells(with newCells: [any POICellViewModel]) {
        var byID: [String: any POICellViewModel] = [:]
        var unique: [any POICellViewModel] = []
        for cell in newCells where byID[cell.id] == nil {
            byID[cell.id] = cell
            unique.append(cell)
        }
        cellsByID = byID
        cells = unique
    }

    /// The cell named by a `select` argument, or the reason it names none.
    private func cell(selectedBy argument: JSONValue?) throws(ViewModelError) -> any POICellViewModel {
        let value = try Command.requireMember("id", of: argument, command: "select", shape: #"{"id": "<cell id>"}"#)
        guard let id = value.stringValue else {
            throw .invalidArgument(command: "select", reason: "\"id\" must be a string, got \(value.typeName)")
        }
        guard let cell = cellsByID[id] else {
            throw .invalidArgument(command: "select", reason: "no item has id \"\(id)\"")
        }
        return cell
    }
}
