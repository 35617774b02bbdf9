import SeedApps
import BinderyRuntime
import BinderyTestSupport
import BinderyUpstream
import Testing

@MainActor
@Suite("List view model (seed 000 Demo 1: Demo1ViewModel)", .timeLimit(.minutes(1)))
struct ListViewModelTests {
    /// Runs `load` to its end: waits until both upstream calls sleep, then advances one second.
    func runLoad(
        _ model: ListViewModel, on clock: CountingClock, calls: Int = 2
    ) async throws -> Result<CommandResult, ExecutionFailure> {
        let started = clock.sleepsStarted
        let run = Task { try await model.execute("load") }
        await clock.waitForSleeps(started + calls)
        await clock.advance(by: .seconds(1))
        return try await run.value
    }

    @Test func startsEmptyInTheFirstCity() throws {
        let (upstream, _) = makeTestUpstream()
        let model = ListViewModel(upstream: upstream)
        let firstCity = try #require(upstream.cities.first)
        #expect(model.currentCityId == firstCity.id)
        #expect(model.outputs["items"] == [])
        #expect(model.outputs["error"] == .null)
        let cities = try #require(model.outputs["cities"])
        #expect(cities == .array(upstream.cities.map { ["id": .int($0.id), "name": .string($0.name)] }))
        #expect(model.isEnabled("load"))
    }

    @Test func loadShowsScenicCellsThenHotelCells() async throws {
        let (upstream, clock) = makeTestUpstream()
        let model = ListViewModel(upstream: upstream)

        let result = try await runLoad(model, on: clock)

        #expect(try result.get() == .none)
        let spots = try await upstream.peekTravel(clock)
        let hotels = try await upstream.peekHotels(clock)
        #expect(model.cells.map(\.id) == spots.map { "scenic-\($0.id)" } + hotels.map { "hotel-\($0.id)" })
        #expect(model.cells.prefix(spots.count).allSatisfy { $0.kind == .scenic })
        #expect(model.outputs["error"] == .null)
        #expect(model.command(named: "load")?.isExecuting == false)
    }

    @Test func itemsAreChildSnapshotsWithStableIDsAndPaths() async throws {
        let (upstream, clock) = makeTestUpstream()
        let model = ListViewModel(upstream: upstream)
        _ = try await runLoad(model, on: clock)

        guard case .array(let items)? = model.outputs["items"], let first = items.first?.objectValue else {
            Issue.record("items is not a non-empty array")
            return
        }
        let cell = model.cells[0]
        #expect(first["id"] == .string(cell.id))
        #expect(first["path"] == .string("list/items/\(cell.id)"))
        #expect(first["outputs"] == .object(cell.outputs))
        #expect(items.count == model.cells.count)
    }

    @Test func childrenAreTheSameCellObjectsUntilTheNextLoad() async throws {
        let (upstream, clock) = makeTestUpstream()
        let model = ListViewModel(upstream: upstream)
        _ = try await runLoad(model, on: clock)
        let id = model.cells[0].id

        let child = try #require(model.child(at: ["items", id]))
        #expect(child === model.cells[0])
        #expect(model.child(at: ["items", id]) === child)
        #expect(model.child(at: ["items", "scenic-nope"]) == nil)
        #expect(model.child(at: ["items"]) == nil)
        #expect(model.child(at: ["cells", id]) == nil)

        _ = try await runLoad(model, on: clock)
        let reloaded = try #require(model.child(at: ["items", id]))
        #expect(reloaded !== child)
    }

    @Test func rightFooterFollowsTheCurrentCityLive() async throws {
        let (upstream, clock) = makeTestUpstream()
        let model = ListViewModel(upstream: upstream, currentCityId: 1)
        _ = try await runLoad(model, on: clock)
        let scenic = model.cells.compactMap { $0 as? ScenicCellViewModel }
        let beijing = try #require(scenic.first { $0.scenic.cityId == 1 })
        let elsewhere = try #require(scenic.first { $0.scenic.cityId != 1 })
        #expect(beijing.rightFooter == beijing.scenic.areaName)
        #expect(elsewhere.rightFooter == elsewhere.scenic.cityName)

        try await model.write(["currentCityId": .int(elsewhere.scenic.cityId)])

        #expect(model.inputValues["currentCityId"] == .int(elsewhere.scenic.cityId))
        #expect(beijing.rightFooter == beijing.scenic.cityName)
        #expect(elsewhere.rightFooter == elsewhere.scenic.areaName)
        #expect(scenic.allSatisfy { $0.rightFooter == ($0.scenic.cityId == elsewhere.scenic.cityId ? $0.scenic.areaName : $0.scenic.cityName) })
    }

    @Test func currentCityInputRefusesUnknownCitiesAndNonIntegers() async throws {
        let (upstream, _) = makeTestUpstream()
        let model = ListViewModel(upstream: upstream)
        let before = model.currentCityId
        await #expect(throws: ViewModelError.invalidInput(name: "currentCityId", reason: "no city has id 999999")) {
            try await model.write(["currentCityId": 999_999])
        }
        await #expect(throws: ViewModelError.invalidInput(name: "currentCityId", reason: "expected an integer, got string")) {
            try await model.write(["currentCityId": "1"])
        }
        #expect(model.currentCityId == before)
    }

    @Test func travelFailureFailsTheLoadAndClearsTheItems() async throws {
        let (upstream, clock) = makeTestUpstream()
        let model = ListViewModel(upstream: upstream)
        _ = try await runLoad(model, on: clock)
        #expect(!model.cells.isEmpty)

        upstream.update(UpstreamSettings(seed: 42, endpoints: [.travel: EndpointSettings(failureRate: 1)]))
        let result = try await runLoad(model, on: clock)

        let expected = ExecutionFailure(message: "Bad Network", code: 500, origin: .upstream)
        #expect(result == .failure(expected))
        #expect(model.cells.isEmpty)
        #expect(model.outputs["items"] == [])
        #expect(model.outputs["error"] == expected.json)
        #expect(model.command(named: "load")?.lastError == expected)
        #expect(model.child(at: ["items", "scenic-s1001"]) == nil)
    }

    @Test func hotelFailureAloneFailsTheLoad() async throws {
        let (upstream, clock) = makeTestUpstream([.hotel: EndpointSettings(failureRate: 1)])
        let model = ListViewModel(upstream: upstream)

        let result = try await runLoad(model, on: clock)

        #expect(result == .failure(ExecutionFailure(message: "Bad Network", code: 500, origin: .upstream)))
        #expect(model.cells.isEmpty)
    }

    @Test func aSuccessfulLoadClearsThePreviousError() async throws {
        let (upstream, clock) = makeTestUpstream([.travel: EndpointSettings(failureRate: 1)])
        let model = ListViewModel(upstream: upstream)
        _ = try await runLoad(model, on: clock)
        #expect(model.error != nil)

        upstream.update(UpstreamSettings(seed: 42, endpoints: [:]))
        let result = try await runLoad(model, on: clock)

        #expect(try result.get() == .none)
        #expect(model.error == nil)
        #expect(model.command(named: "load")?.lastError == nil)
        #expect(!model.cells.isEmpty)
    }

    @Test func malformedUpstreamJSONShowsErrorJSONData() async throws {
        let (upstream, clock) = makeTestUpstream([.travel: EndpointSettings(malformedRate: 1)])
        let model = ListViewModel(upstream: upstream)

        let result = try await runLoad(model, on: clock)

        let expected = ExecutionFailure(message: "Error JSON Data", code: 502, origin: .upstream)
        #expect(result == .failure(expected))
        #expect(model.outputs["error"] == expected.json)
        #expect(model.cells.isEmpty)
    }

    @Test func bothCallsRunConcurrentlyWithinOneSecond() async throws {
        let (upstream, clock) = makeTestUpstream()
        let model = ListViewModel(upstream: upstream)
        let start = clock.now

        let run = Task { try await model.execute("load") }
        await clock.waitForSleeps(2)
        #expect(model.command(named: "load")?.isExecuting == true)
        await clock.advance(by: .milliseconds(999))
        await yieldToOtherTasks(rounds: 20)
        #expect(model.command(named: "load")?.isExecuting == true)
        #expect(model.cells.isEmpty)

        await clock.advance(by: .milliseconds(1))
        await settle { model.command(named: "load")?.isExecuting == false }

        #expect(start.duration(to: clock.now) == .seconds(1))
        #expect(!model.cells.isEmpty)
        #expect(try await run.value == .success(.none))
    }

    @Test func aSecondLoadWhileOneRunsIsRefused() async throws {
        let (upstream, clock) = makeTestUpstream()
        let model = ListViewModel(upstream: upstream)
        let run = Task { try await model.execute("load") }
        await clock.waitForSleeps(2)
        #expect(!model.isEnabled("load"))

        await #expect(throws: ViewModelError.commandExecuting(name: "load")) {
            try await model.execute("load")
        }

        await clock.advance(by: .seconds(1))
        #expect(try await run.value == .success(.none))
        #expect(clock.sleepsStarted == 2)
        #expect(model.isEnabled("load"))
    }

    @Test func cancellingTheLoadKeepsTheItemsAndShowsNoError() async throws {
        let (upstream, clock) = makeTestUpstream()
        let model = ListViewModel(upstream: upstream)
        _ = try await runLoad(model, on: clock)
        let cells = model.cells.map(\.id)

        let run = Task { try await model.execute("load") }
        await clock.waitForSleeps(4)
        run.cancel()
        let result = try await run.value

        #expect(result == .failure(.cancelled))
        #expect(model.cells.map(\.id) == cells)
        #expect(model.error == nil)
        #expect(model.command(named: "load")?.isExecuting == false)
        try await clock.base.checkSuspension()
    }

    @Test func selectNavigatesToTheCellsPage() async throws {
        let (upstream, clock) = makeTestUpstream()
        let model = ListViewModel(upstream: upstream)
        _ = try await runLoad(model, on: clock)
        let scenic = try #require(model.cells.first { $0.kind == .scenic })
        let hotel = try #require(model.cells.first { $0.kind == .hotel })

        let scenicResult = try await model.execute("select", ["id": .string(scenic.id)])
        let hotelResult = try await model.execute("select", ["id": .string(hotel.id)])

        #expect(scenicResult == .success(CommandResult(navigate: "/list/items/\(scenic.id)")))
        #expect(hotelResult == .success(CommandResult(navigate: "/list/items/\(hotel.id)")))
    }

    @Test(arguments: [nil, JSONValue.null, [:], ["id": 5], ["id": "scenic-unknown"], ["name": "x"], "scenic-s1001"])
    func selectRefusesArgumentsThatNameNoCell(argument: JSONValue?) async throws {
        let (upstream, clock) = makeTestUpstream()
        let model = ListViewModel(upstream: upstream)
        _ = try await runLoad(model, on: clock)

        do {
            _ = try await model.execute("select", argument)
            Issue.record("select accepted \(String(describing: argument))")
        } catch {
            #expect(isInvalidArgument(error, command: "select"))
        }
        #expect(model.command(named: "select")?.lastError == nil)
        #expect(model.command(named: "select")?.isExecuting == false)
    }

    @Test func selectBeforeAnyLoadIsRefused() async {
        let (upstream, _) = makeTestUpstream()
        let model = ListViewModel(upstream: upstream)
        await #expect(throws: ViewModelError.invalidArgument(command: "select", reason: "no item has id \"scenic-s1001\"")) {
            try await model.execute("select", ["id": "scenic-s1001"])
        }
    }
}

extension UpstreamProvider {
    /// The scenic spots as the upstream serves them, read on a clock that is advanced for it.
    func peekTravel(_ clock: CountingClock) async throws -> [ScenicSpot] {
        try await peek(clock) { try await self.travel() }
    }

    /// The hotels as the upstream serves them, read on a clock that is advanced for it.
    func peekHotels(_ clock: CountingClock) async throws -> [Hotel] {
        try await peek(clock) { try await self.hotels() }
    }

    private func peek<Value: Sendable>(
        _ clock: CountingClock, _ call: @escaping @Sendable () async throws -> Value
    ) async throws -> Value {
        let started = clock.sleepsStarted
        let task = Task { try await call() }
        await clock.waitForSleeps(started + 1)
        await clock.advance(by: .seconds(1))
        return try await task.value
    }
}
