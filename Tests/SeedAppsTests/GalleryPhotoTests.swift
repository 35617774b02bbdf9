import SeedApps
import BinderyRuntime
import BinderyTestSupport
import BinderyUpstream
import BinderyTesting
import Testing

/// Seed 004's `FRPPhotoViewModel` specs, in-process: details load while the photo is active.
@MainActor
@Suite("Photo view model (seed 004)", .timeLimit(.minutes(1)))
struct GalleryPhotoTests {
    /// A tester of the first test photo (`p01`) on `upstream`.
    func photoTester(_ upstream: UpstreamProvider, log: GalleryLogRecorder = GalleryLogRecorder()) -> ViewModelTester<PhotoViewModel> {
        let model = PhotoViewModel(photo: galleryTestPhotos(1)[0], index: 0, upstream: upstream, log: log.sink)
        return ViewModelTester(model)
    }

    /// The seed's "should return the correct photo name", and the rest of the first snapshot.
    @Test func shouldReturnTheCorrectPhotoName() {
        let (upstream, _) = makeTestUpstream()
        let photo = Photo(id: "p01", name: "Ash", photographer: "Someone", thumbnailURL: "t")
        let viewModel = ViewModelTester(PhotoViewModel(photo: photo, index: 4, upstream: upstream)) { state in
            #expect(state.inputs.isEmpty)
            #expect(state.outputs == ["index": 4, "photoName": "Ash", "loading": false, "photoImage": nil, "error": nil])
            #expect(state.commands.isEmpty)
        }
        viewModel.finish()
    }

    @Test func shouldNotDownloadInInit() async {
        let (upstream, clock) = makeTestUpstream()
        let photo = photoTester(upstream)

        await photo.settle { _ in }

        #expect(clock.sleepsStarted == 0)
        photo.finish()
    }

    @Test func shouldDownloadPhotoModelDetailsWhenItBecomesActive() async {
        let (upstream, clock) = makeTestUpstream()
        let photo = photoTester(upstream)

        await photo.activate { $0.outputs["loading"] = true }
        await clock.waitForSleeps(1)
        await clock.advance(by: .seconds(1))
        await photo.settle {
            $0.outputs["loading"] = false
            $0.outputs["photoImage"] = "/upstream/images/photo-p01-full.svg"
        }
        photo.finish()
    }

    @Test func aLoadedImageIsNotFetchedAgain() async {
        let (upstream, clock) = makeTestUpstream()
        let photo = photoTester(upstream)
        await photo.activate { $0.outputs["loading"] = true }
        await clock.waitForSleeps(1)
        await clock.advance(by: .seconds(1))
        await photo.settle {
            $0.outputs["loading"] = false
            $0.outputs["photoImage"] = "/upstream/images/photo-p01-full.svg"
        }

        await photo.activate { _ in }

        #expect(clock.sleepsStarted == 1)
        photo.finish()
    }

    @Test func becomingInactiveCancelsTheFetchWithoutAnError() async throws {
        let (upstream, clock) = makeTestUpstream()
        let photo = photoTester(upstream)
        await photo.activate { $0.outputs["loading"] = true }
        await clock.waitForSleeps(1)

        await photo.deactivate { $0.outputs["loading"] = false }
        try await clock.base.checkSuspension()

        await photo.activate { $0.outputs["loading"] = true }
        await clock.waitForSleeps(2)
        await clock.advance(by: .seconds(1))
        await photo.settle {
            $0.outputs["loading"] = false
            $0.outputs["photoImage"] = "/upstream/images/photo-p01-full.svg"
        }
        photo.finish()
    }

    @Test func aFailedFetchIsShownAndLogged() async {
        let (upstream, clock) = makeTestUpstream([.photoDetails: EndpointSettings(failureRate: 1)])
        let log = GalleryLogRecorder()
        let photo = photoTester(upstream, log: log)

        await photo.activate { $0.outputs["loading"] = true }
        await clock.waitForSleeps(1)
        await clock.advance(by: .seconds(1))
        await photo.settle {
            $0.outputs["loading"] = false
            $0.outputs["error"] = badNetwork
        }

        #expect(log.messages == ["gallery: could not fetch photo details of p01: photoDetails: 500 Bad Network"])
        photo.finish()
    }

    @Test func anUnknownPhotoFailsWithNotFound() async {
        let (upstream, clock) = makeTestUpstream()
        let photo = ViewModelTester(
            PhotoViewModel(photo: Photo(id: "nope", name: "Missing", photographer: "", thumbnailURL: ""), index: 0, upstream: upstream)
        )

        await photo.activate { $0.outputs["loading"] = true }
        await clock.waitForSleeps(1)
        await clock.advance(by: .seconds(1))
        await photo.settle {
            $0.outputs["loading"] = false
            $0.outputs["error"] = ["message": "Not Found", "code": 404, "origin": "upstream"]
        }
        photo.finish()
    }
}
