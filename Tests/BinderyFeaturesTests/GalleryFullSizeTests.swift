import BinderyFeatures
import BinderyRuntime
import BinderyUpstream
import Testing

/// Seed 004's `FRPFullSizePhotoViewModel` and `FRPPhotoViewModel` specs, in-process.
@MainActor
@Suite("Full-size photo and photo view models (seed 004)", .timeLimit(.minutes(1)))
struct GalleryFullSizeTests {
    // MARK: FRPFullSizePhotoViewModel

    @Test func shouldAssignCorrectAttributesWhenInitialized() {
        let (upstream, _) = makeTestUpstream()
        let model: [Photo] = []
        let initialPhotoIndex = 1337

        let viewModel = FullSizePhotoViewModel(photos: model, initialIndex: initialPhotoIndex, upstream: upstream)

        #expect(viewModel.photos == model)
        #expect(viewModel.initialPhotoIndex == initialPhotoIndex)
        #expect(viewModel.initialPhotoName == nil)
        #expect(viewModel.outputs == [
            "initialPhotoIndex": 1337, "initialPhotoName": nil, "count": 0, "photo": nil,
        ])
        #expect(!viewModel.isEnabled("previous"))
        #expect(!viewModel.isEnabled("next"))
    }

    @Test func shouldReturnNilForAnOutOfBoundsPhotoIndex() {
        let (upstream, _) = makeTestUpstream()
        let model = galleryTestPhotos(1)
        let viewModel = FullSizePhotoViewModel(photos: model, initialIndex: 0, upstream: upstream)

        #expect(viewModel.photoModelAtIndex(-1) == nil)
        #expect(viewModel.photoModelAtIndex(model.count) == nil)
        #expect(viewModel.photoModelAtIndex(Int.min) == nil)
        #expect(viewModel.photoModelAtIndex(Int.max) == nil)
    }

    @Test func shouldReturnTheCorrectModelForPhotoModelAtIndex() throws {
        let (upstream, _) = makeTestUpstream()
        let model = galleryTestPhotos(3)
        let viewModel = FullSizePhotoViewModel(photos: model, initialIndex: 0, upstream: upstream)

        let returned = try #require(viewModel.photoModelAtIndex(2))

        #expect(returned.photo == model[2])
        #expect(returned.index == 2)
        #expect(viewModel.photoModelAtIndex(2) === returned)
    }

    @Test func shouldReturnTheCorrectInitialPhotoModel() throws {
        let (upstream, _) = makeTestUpstream()
        let model = galleryTestPhotos(3)
        let viewModel = FullSizePhotoViewModel(photos: model, initialIndex: 1, upstream: upstream)

        let initial = try #require(viewModel.initialPhotoModel)

        #expect(initial === viewModel.photoModelAtIndex(1))
        #expect(initial.photo == model[1])
        #expect(viewModel.initialPhotoName == model[1].name)
    }

    @Test func outputsShowTheInitialPhoto() {
        let (upstream, _) = makeTestUpstream()
        let viewModel = FullSizePhotoViewModel(photos: galleryTestPhotos(3), initialIndex: 1, upstream: upstream)
        #expect(viewModel.outputs == [
            "initialPhotoIndex": 1,
            "initialPhotoName": "Photo 2",
            "count": 3,
            "photo": ["index": 1, "photoName": "Photo 2", "loading": false, "photoImage": nil, "error": nil],
        ])
    }

    @Test func previousAndNextGoToTheNeighboursPages() async throws {
        let (upstream, _) = makeTestUpstream()
        let photos = galleryTestPhotos(3)
        let first = FullSizePhotoViewModel(photos: photos, initialIndex: 0, upstream: upstream)
        let middle = FullSizePhotoViewModel(photos: photos, initialIndex: 1, upstream: upstream)
        let last = FullSizePhotoViewModel(photos: photos, initialIndex: 2, upstream: upstream)

        #expect(!first.isEnabled("previous"))
        #expect(first.isEnabled("next"))
        #expect(!last.isEnabled("next"))
        #expect(try await middle.execute("previous") == .success(CommandResult(navigate: "/gallery/photos/0")))
        #expect(try await middle.execute("next") == .success(CommandResult(navigate: "/gallery/photos/2")))
        await #expect(throws: ViewModelError.commandDisabled(name: "previous")) { try await first.execute("previous") }
        await #expect(throws: ViewModelError.commandDisabled(name: "next")) { try await last.execute("next") }
        #expect(FullSizePhotoViewModel.declaration.commands.map(\.name) == ["previous", "next"])
    }

    @Test func watchingTheFullSizePageLoadsItsPhoto() async throws {
        let (upstream, clock) = makeTestUpstream()
        let photos = try await upstream.peekPhotos(clock)
        let viewModel = FullSizePhotoViewModel(photos: photos, initialIndex: 0, upstream: upstream)
        let started = clock.sleepsStarted

        let active = Task { await viewModel.whileActive() }
        await clock.waitForSleeps(started + 1)
        #expect(viewModel.initialPhotoModel?.loading == true)
        await clock.advance(by: .seconds(1))
        await active.value

        let photo = try #require(viewModel.initialPhotoModel)
        #expect(photo.loading == false)
        #expect(photo.photoImage == "/upstream/images/photo-\(photos[0].id)-full.svg")
        #expect(viewModel.outputs["photo"]?.objectValue?["photoImage"] == .string(photo.photoImage ?? ""))
    }

    // MARK: FRPPhotoViewModel

    @Test func shouldReturnTheCorrectPhotoName() {
        let (upstream, _) = makeTestUpstream()
        let photo = Photo(id: "p01", name: "Ash", photographer: "Someone", thumbnailURL: "t")
        let viewModel = PhotoViewModel(photo: photo, index: 0, upstream: upstream)
        #expect(viewModel.photoName == "Ash")
        #expect(viewModel.outputs["photoName"] == "Ash")
    }

    @Test func shouldNotDownloadInInit() async {
        let (upstream, clock) = makeTestUpstream()
        let viewModel = PhotoViewModel(photo: galleryTestPhotos(1)[0], index: 0, upstream: upstream)
        await yieldToOtherTasks(rounds: 10)
        #expect(clock.sleepsStarted == 0)
        #expect(!viewModel.loading)
    }

    @Test func shouldDownloadPhotoModelDetailsWhenItBecomesActive() async throws {
        let (upstream, clock) = makeTestUpstream()
        let viewModel = PhotoViewModel(photo: galleryTestPhotos(1)[0], index: 0, upstream: upstream)
        #expect(viewModel.photoImage == nil)

        let active = Task { await viewModel.whileActive() }
        await clock.waitForSleeps(1)
        #expect(viewModel.loading)
        #expect(viewModel.outputs["loading"] == true)
        await clock.advance(by: .seconds(1))
        await active.value

        #expect(!viewModel.loading)
        #expect(viewModel.photoImage == "/upstream/images/photo-p01-full.svg")
        #expect(viewModel.error == nil)
    }

    @Test func aLoadedImageIsNotFetchedAgain() async throws {
        let (upstream, clock) = makeTestUpstream()
        let viewModel = PhotoViewModel(photo: galleryTestPhotos(1)[0], index: 0, upstream: upstream)
        let active = Task { await viewModel.whileActive() }
        await clock.waitForSleeps(1)
        await clock.advance(by: .seconds(1))
        await active.value

        await viewModel.whileActive()

        #expect(clock.sleepsStarted == 1)
        #expect(viewModel.photoImage != nil)
    }

    @Test func becomingInactiveCancelsTheFetchWithoutAnError() async throws {
        let (upstream, clock) = makeTestUpstream()
        let viewModel = PhotoViewModel(photo: galleryTestPhotos(1)[0], index: 0, upstream: upstream)
        let active = Task { await viewModel.whileActive() }
        await clock.waitForSleeps(1)
        #expect(viewModel.loading)

        active.cancel()
        await active.value

        #expect(!viewModel.loading)
        #expect(viewModel.error == nil)
        #expect(viewModel.photoImage == nil)
        try await clock.base.checkSuspension()

        let again = Task { await viewModel.whileActive() }
        await clock.waitForSleeps(2)
        await clock.advance(by: .seconds(1))
        await again.value
        #expect(viewModel.photoImage == "/upstream/images/photo-p01-full.svg")
    }

    @Test func aFailedFetchIsShownAndLogged() async throws {
        let (upstream, clock) = makeTestUpstream([.photoDetails: EndpointSettings(failureRate: 1)])
        let log = GalleryLogRecorder()
        let viewModel = PhotoViewModel(photo: galleryTestPhotos(1)[0], index: 0, upstream: upstream, log: log.sink)
        let active = Task { await viewModel.whileActive() }
        await clock.waitForSleeps(1)
        await clock.advance(by: .seconds(1))
        await active.value

        #expect(!viewModel.loading)
        #expect(viewModel.photoImage == nil)
        #expect(viewModel.outputs["error"] == ["message": "Bad Network", "code": 500, "origin": "upstream"])
        #expect(log.messages.count == 1)
    }

    @Test func anUnknownPhotoFailsWithNotFound() async throws {
        let (upstream, clock) = makeTestUpstream()
        let photo = Photo(id: "nope", name: "Missing", photographer: "", thumbnailURL: "")
        let viewModel = PhotoViewModel(photo: photo, index: 0, upstream: upstream)
        let active = Task { await viewModel.whileActive() }
        await clock.waitForSleeps(1)
        await clock.advance(by: .seconds(1))
        await active.value

        #expect(viewModel.error == ExecutionFailure(message: "Not Found", code: 404, origin: .upstream))
    }
}

extension UpstreamProvider {
    /// The photo list as the upstream serves it, read on a clock that is advanced for it.
    func peekPhotos(_ clock: CountingTestClock) async throws -> [Photo] {
        let started = clock.sleepsStarted
        let task = Task { try await self.photos() }
        await clock.waitForSleeps(started + 1)
        await clock.advance(by: .seconds(1))
        return try await task.value
    }
}
