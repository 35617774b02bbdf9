import BinderyFeatures
import BinderyRuntime
import BinderyUpstream
import Testing

/// Seed 004's `FRPGalleryViewModel`: photos imported on activation, errors logged and empty.
@MainActor
@Suite("Gallery view model (seed 004)", .timeLimit(.minutes(1)))
struct GalleryViewModelTests {
    /// Activates `model` until its import ends: waits for the call, advances one second.
    func activate(_ model: GalleryViewModel, on clock: CountingTestClock) async {
        let started = clock.sleepsStarted
        let active = Task { await model.whileActive() }
        await clock.waitForSleeps(started + 1)
        await clock.advance(by: .seconds(1))
        await active.value
    }

    @Test func shouldBeInitializedWithoutImporting() async {
        let (upstream, clock) = makeTestUpstream()
        let model = GalleryViewModel(upstream: upstream)
        await yieldToOtherTasks(rounds: 10)

        #expect(clock.sleepsStarted == 0)
        #expect(model.outputs == ["photos": [], "loading": false, "error": nil])
    }

    @Test func becomingActiveImportsThePhotos() async throws {
        let (upstream, clock) = makeTestUpstream()
        let expected = try await upstream.peekPhotos(clock)
        let model = GalleryViewModel(upstream: upstream)
        let started = clock.sleepsStarted

        let active = Task { await model.whileActive() }
        await clock.waitForSleeps(started + 1)
        #expect(model.loading)
        #expect(model.outputs["loading"] == true)
        await clock.advance(by: .seconds(1))
        await active.value

        #expect(!model.loading)
        #expect(model.photos == expected)
        #expect(model.error == nil)
        let first = try #require(expected.first)
        guard case .array(let photos)? = model.outputs["photos"] else {
            Issue.record("photos is not an array")
            return
        }
        #expect(photos.count == expected.count)
        #expect(photos.first == ["index": 0, "name": .string(first.name), "thumbnail": .string(first.thumbnailURL)])
        #expect(photos.last?.objectValue?["index"] == .int(expected.count - 1))
    }

    @Test func laterActivationsDoNotImportAgain() async throws {
        let (upstream, clock) = makeTestUpstream()
        let model = GalleryViewModel(upstream: upstream)
        await activate(model, on: clock)
        let photos = model.photos

        await model.whileActive()

        #expect(clock.sleepsStarted == 1)
        #expect(model.photos == photos)
        #expect(!model.loading)
    }

    @Test func anImportErrorIsLoggedShownAndLeavesTheGalleryEmpty() async throws {
        let (upstream, clock) = makeTestUpstream([.photos: EndpointSettings(failureRate: 1)])
        let log = GalleryLogRecorder()
        let model = GalleryViewModel(upstream: upstream, log: log.sink)

        await activate(model, on: clock)

        #expect(model.photos.isEmpty)
        #expect(!model.loading)
        #expect(model.outputs["photos"] == [])
        #expect(model.outputs["error"] == ["message": "Bad Network", "code": 500, "origin": "upstream"])
        #expect(log.messages == ["gallery: could not import photos: photos: 500 Bad Network"])
        #expect(model.child(at: ["photos", "0"]) == nil)
    }

    @Test func theNextActivationAfterAFailureTriesAgain() async throws {
        let (upstream, clock) = makeTestUpstream([.photos: EndpointSettings(malformedRate: 1)])
        let model = GalleryViewModel(upstream: upstream)
        await activate(model, on: clock)
        #expect(model.error?.message == "Error JSON Data")

        upstream.update(UpstreamSettings(seed: 42, endpoints: [:]))
        let started = clock.sleepsStarted
        let active = Task { await model.whileActive() }
        await clock.waitForSleeps(started + 1)
        #expect(model.error == nil)
        await clock.advance(by: .seconds(1))
        await active.value

        #expect(!model.photos.isEmpty)
        #expect(model.error == nil)
    }

    @Test func becomingInactiveCancelsTheImportWithoutAnError() async throws {
        let (upstream, clock) = makeTestUpstream()
        let log = GalleryLogRecorder()
        let model = GalleryViewModel(upstream: upstream, log: log.sink)
        let active = Task { await model.whileActive() }
        await clock.waitForSleeps(1)

        active.cancel()
        await active.value

        #expect(!model.loading)
        #expect(model.error == nil)
        #expect(model.photos.isEmpty)
        #expect(log.messages.isEmpty)
        await activate(model, on: clock)
        #expect(!model.photos.isEmpty)
    }

    @Test func theGalleryBuildsEachFullSizePageOnce() async throws {
        let (upstream, clock) = makeTestUpstream()
        let model = GalleryViewModel(upstream: upstream)
        await activate(model, on: clock)

        let page = try #require(model.child(at: ["photos", "2"]) as? FullSizePhotoViewModel)

        #expect(page.photos == model.photos)
        #expect(page.initialPhotoIndex == 2)
        #expect(page.initialPhotoName == model.photos[2].name)
        #expect(model.child(at: ["photos", "2"]) === page)
        #expect(model.fullSizePhotoViewModel(at: 2) === page)
        let last = String(model.photos.count - 1)
        #expect(model.child(at: ["photos", last]) != nil)
    }

    @Test(arguments: ["-1", "24", "999", "x", "1.5", "01", "+1", "", " 1"])
    func outOfBoundsOrMalformedIndexesHaveNoPage(segment: String) async throws {
        let (upstream, clock) = makeTestUpstream()
        let model = GalleryViewModel(upstream: upstream)
        await activate(model, on: clock)
        #expect(model.photos.count == 24)

        #expect(model.child(at: ["photos", segment]) == nil)
    }

    @Test func otherChildPathsHaveNoPage() async {
        let (upstream, clock) = makeTestUpstream()
        let model = GalleryViewModel(upstream: upstream)
        await activate(model, on: clock)
        #expect(model.child(at: ["photos"]) == nil)
        #expect(model.child(at: ["items", "0"]) == nil)
        #expect(model.child(at: ["photos", "0", "more"]) == nil)
    }

    @Test func selectNavigatesToTheFullSizePage() async throws {
        let (upstream, clock) = makeTestUpstream()
        let model = GalleryViewModel(upstream: upstream)
        await activate(model, on: clock)

        #expect(try await model.execute("select", ["index": 3]) == .success(CommandResult(navigate: "/gallery/photos/3")))
        #expect(try await model.execute("select", ["index": 3.0]) == .success(CommandResult(navigate: "/gallery/photos/3")))
    }

    @Test(arguments: [nil, JSONValue.null, [:], ["index": -1], ["index": 24], ["index": "3"], ["index": 1.5], 3])
    func selectRefusesIndexesOutOfBoundsOrOfTheWrongType(argument: JSONValue?) async throws {
        let (upstream, clock) = makeTestUpstream()
        let model = GalleryViewModel(upstream: upstream)
        await activate(model, on: clock)

        do {
            _ = try await model.execute("select", argument)
            Issue.record("select accepted \(String(describing: argument))")
        } catch {
            #expect(isInvalidArgument(error, command: "select"))
        }
    }

    @Test func selectBeforeTheImportIsRefused() async {
        let (upstream, _) = makeTestUpstream()
        let model = GalleryViewModel(upstream: upstream)
        await #expect(throws: ViewModelError.invalidArgument(command: "select", reason: "no photo has index 0 (there are 0)")) {
            try await model.execute("select", ["index": 0])
        }
    }
}
