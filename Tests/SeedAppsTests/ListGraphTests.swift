import SeedApps
import BinderyRuntime
import BinderyTestSupport
import BinderyUpstream
import Testing

/// The list served by a session's ``ViewModelGraph`` built from ``FeatureRoots``: what a client
/// sees through the binding layer, without HTTP.
@MainActor
@Suite("List in a view-model graph", .timeLimit(.minutes(1)))
struct ListGraphTests {
    /// A graph whose list has loaded, and the spots it loaded.
    func loadedGraph() async throws -> (ViewModelGraph, CountingClock, [ScenicSpot]) {
        let (upstream, clock) = makeTestUpstream()
        let spots = try await upstream.peekTravel(clock)
        let graph = ViewModelGraph(screens: FeatureScreens.all(upstream: upstream))
        let started = clock.sleepsStarted
        let outcome = try await graph.execute("list", command: "load", argument: JSONValue?.none)
        guard case .running(let snapshot) = outcome else {
            Issue.record("load did not keep running: \(outcome)")
            return (graph, clock, spots)
        }
        #expect(try snapshot.decoded().objectValue?["commands"]?.objectValue?["load"]?.objectValue?["executing"] == true)
        await clock.waitForSleeps(started + 2)
        await clock.advance(by: .seconds(1))
        await settle {
            guard case .array(let items)? = try? await graph.snapshot("list").output("items") else { return false }
            return !items.isEmpty
        }
        return (graph, clock, spots)
    }

    @Test func screensNameTheFourScreens() throws {
        let (upstream, _) = makeTestUpstream()
        let screens = FeatureScreens.all(upstream: upstream)
        #expect(screens.map(\.name) == ["form", "list", "gallery", "courses", "recipes", "favourites"])
        #expect(screens.map(\.title) == ["Login form", "Points of interest", "Photo gallery", "Courses", "Film recipes", "My favourites"])
        #expect(screens[0].makeRoot(Viewer()) is FormViewModel)
        #expect(screens[1].makeRoot(Viewer()) is ListViewModel)
        #expect(screens[2].makeRoot(Viewer()) is GalleryViewModel)
        #expect(screens[3].makeRoot(Viewer()) is CoursesViewModel)
        #expect(screens[4].makeRoot(Viewer()) is RecipesViewModel)
        #expect(screens[5].makeRoot(Viewer()) is FavouritesViewModel)
        #expect(screens.map(\.schema.name) == ["Form", "List", "Gallery", "Courses", "Recipes", "Favourites"])
        #expect(screens[1].schema.children.map(\.pattern) == ["items/{id}"])
        #expect(screens[2].schema.children.map(\.pattern) == ["photos/{index}"])
        #expect(screens[3].schema.children.map(\.pattern) == ["{id}"])
        #expect(screens[4].schema.children.map(\.pattern) == ["{id}"])
        #expect(screens[4].schema.children[0].viewModel.children.map(\.pattern) == ["edit", "timer"])
    }

    @Test func patchingTheCityPushesNewFootersToWatchedCells() async throws {
        let (graph, _, spots) = try await loadedGraph()
        let home = try #require(spots.first)
        let elsewhere = try #require(spots.first { $0.cityId != home.cityId })
        let path = "list/items/scenic-\(home.id)"
        _ = try await graph.write("list", patch: ["currentCityId": .int(home.cityId)])
        let before = try await graph.snapshot(path)
        #expect(try before.output("rightFooter") == .string(home.areaName))

        let events = ListSnapshotRecorder()
        let watch = try await graph.watch(path, after: before.version, send: events.send, end: {})
        let listAfter = try await graph.write("list", patch: ["currentCityId": .int(elsewhere.cityId)])
        let after = try await graph.snapshot(path)

        #expect(try after.output("rightFooter") == .string(home.cityName))
        #expect(after.version > before.version)
        #expect(try listAfter.decoded().objectValue?["inputs"] == ["currentCityId": .int(elsewhere.cityId)])
        await settle { events.received.contains { $0.version == after.version } }
        await graph.unwatch(path, id: watch)
        await graph.close()
    }

    @Test func selectAnswersTheCellsPageWhichTheGraphServes() async throws {
        let (graph, _, _) = try await loadedGraph()
        guard case .array(let items)? = try await graph.snapshot("list").output("items"),
            let hotel = items.last?.objectValue, case .string(let id)? = hotel["id"]
        else {
            Issue.record("no items")
            return
        }

        let outcome = try await graph.execute("list", command: "select", argument: ["id": .string(id)])

        guard case .completed(_, let result) = outcome else {
            Issue.record("select did not complete: \(outcome)")
            return
        }
        #expect(result.navigate == "/list/items/\(id)")
        let page = try await graph.snapshot("list/items/\(id)")
        #expect(try page.output("kind") == "hotel")
        await #expect(throws: ViewModelError.notFound(path: "list/items/hotel-unknown")) {
            try await graph.snapshot("list/items/hotel-unknown")
        }
        await graph.close()
    }

    @Test func aFailedLoadShowsTheErrorInTheSnapshot() async throws {
        let (upstream, clock) = makeTestUpstream([.travel: EndpointSettings(failureRate: 1)])
        let graph = ViewModelGraph(screens: FeatureScreens.all(upstream: upstream))
        _ = try await graph.execute("list", command: "load", argument: JSONValue?.none)
        await clock.waitForSleeps(2)
        await clock.advance(by: .seconds(1))
        await settle { (try? await graph.snapshot("list").output("error")) != .null }

        let snapshot = try await graph.snapshot("list").decoded().objectValue
        let failure: JSONValue = ["message": "Bad Network", "code": 500, "origin": "upstream"]
        #expect(snapshot?["outputs"]?.objectValue?["error"] == failure)
        #expect(snapshot?["outputs"]?.objectValue?["items"] == [])
        #expect(snapshot?["commands"]?.objectValue?["load"] == ["enabled": true, "executing": false, "error": failure, "policy": "serial"])
        await graph.close()
    }
}
