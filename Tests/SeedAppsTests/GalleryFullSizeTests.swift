import SeedApps
import BinderyRuntime
import BinderyUpstream
import BinderyTesting
import Testing

/// Seed 004's `FRPFullSizePhotoViewModel` specs, in-process.
@MainActor
@Suite("Full-size photo view model (seed 004)", .timeLimit(.minutes(1)))
struct GalleryFullSizeTests {
    /// The seed's "Should assign correct attributes when initialized", seen in the snapshot: an
    /// index past an empty array names no photo and no neighbour.
    @Test func shouldAssignCorrectAttributesWhenInitialized() {
        let (upstream, _) = makeTestUpstream()
        let page = ViewModelTester(FullSizePhotoViewModel(photos: [], initialIndex: 1337, upstream: upstream)) { state in
            #expect(state.inputs.isEmpty)
            #expect(state.outputs == ["initialPhotoIndex": 1337, "initialPhotoName": nil, "count": 0, "photo": nil])
            #expect(
                state.commands == [
                    "previous": .init(enabled: false, executing: false, error: nil, policy: "serial"),
                    "next": .init(enabled: false, executing: false, error: nil, policy: "serial"),
                ])
        }
        page.finish()
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

    /// The initial photo model is the page's photo model at the initial index (identity; its
    /// name as the page's title is in ``shouldShowTheInitialPhoto()``).
    @Test func shouldReturnTheCorrectInitialPhotoModel() throws {
        let (upstream, _) = makeTestUpstream()
        let model = galleryTestPhotos(3)
        let viewModel = FullSizePhotoViewModel(photos: model, initialIndex: 1, upstream: upstream)

        let initial = try #require(viewModel.initialPhotoModel)

        #expect(initial === viewModel.photoModelAtIndex(1))
        #expect(initial.photo == model[1])
    }

    /// The seed's initial photo name, and the photo the page shows, in the snapshot.
    @Test func shouldShowTheInitialPhoto() {
        let (upstream, _) = makeTestUpstream()
        let page = ViewModelTester(FullSizePhotoViewModel(photos: galleryTestPhotos(3), initialIndex: 1, upstream: upstream)) { state in
            #expect(
                state.outputs == [
                    "initialPhotoIndex": 1,
                    "initialPhotoName": "Photo 2",
                    "count": 3,
                    "photo": ["index": 1, "photoName": "Photo 2", "loading": false, "photoImage": nil, "error": nil],
                ])
            #expect(state.commands["previous"]?.enabled == true)
            #expect(state.commands["next"]?.enabled == true)
        }
        page.finish()
    }

    @Test func previousAndNextGoToTheNeighboursPages() throws {
        let (upstream, _) = makeTestUpstream()
        let photos = galleryTestPhotos(3)
        let first = ViewModelTester(
            FullSizePhotoViewModel(photos: photos, initialIndex: 0, upstream: upstream), path: "gallery/photos/0"
        )
        let middle = ViewModelTester(
            FullSizePhotoViewModel(photos: photos, initialIndex: 1, upstream: upstream), path: "gallery/photos/1"
        )
        let last = ViewModelTester(
            FullSizePhotoViewModel(photos: photos, initialIndex: 2, upstream: upstream), path: "gallery/photos/2"
        )

        let previous = try middle.execute("previous") { _ in }
        let next = try middle.execute("next") { _ in }
        let second = try first.execute("next") { _ in }
        first.refuse("previous", with: .commandDisabled(name: "previous"))
        last.refuse("next", with: .commandDisabled(name: "next"))

        #expect(try previous?.get() == CommandResult(navigate: "/gallery/photos/0"))
        #expect(try next?.get() == CommandResult(navigate: "/gallery/photos/2"))
        #expect(try second?.get() == CommandResult(navigate: "/gallery/photos/1"))
        for page in [first, middle, last] { page.finish() }
    }

    @Test func watchingTheFullSizePageLoadsItsPhoto() async throws {
        let (upstream, clock) = makeTestUpstream()
        let photos = try await galleryFixturePhotos()
        let page = ViewModelTester(FullSizePhotoViewModel(photos: photos, initialIndex: 0, upstream: upstream))

        await page.activate { $0.outputs["photo"]?["loading"] = true }
        await clock.waitForSleeps(1)
        await clock.advance(by: .seconds(1))
        await page.settle {
            $0.outputs["photo"]?["loading"] = false
            $0.outputs["photo"]?["photoImage"] = "/upstream/images/photo-p01-full.svg"
        }
        page.finish()
    }
}
