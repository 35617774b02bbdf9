import SeedApps
import BinderyRuntime
import BinderyTestSupport
import BinderyUpstream
import BinderyTesting
import Testing

/// Seed 004's `FRPGalleryViewModel`: photos imported on activation, errors logged and empty.
@MainActor
@Suite("Gallery view model (seed 004)", .timeLimit(.minutes(1)))
struct GalleryViewModelTests {
    /// Activates `model` until its import ends: waits for the call, advances one second.
    func activate(_ model: GalleryViewModel, on clock: CountingClock) async {
        let started = clock.sleepsStarted
        let active = Task { await model.whileActive() }
        await clock.waitForSleeps(started + 1)
        await clock.advance(by: .seconds(1))
        await active.value
    }

    /// The seed's "should be initialized" without `importPhotos`: nothing happens until the
    /// gallery becomes active.
    @Test func shouldBeInitializedWithoutImporting() async {
        let (upstream, clock) = makeTestUpstream()
        let gallery = ViewModelTester(GalleryViewModel(upstream: upstream)) { state in
            #expect(state.inputs.isEmpty)
            #expect(state.outputs == ["photos": [], "loading": false, "error": nil])
            #expect(state.commands["select"] == .init(enabled: true, executing: false, error: nil, policy: "serial"))
        }

        await gallery.settle { _ in }

        #expect(clock.sleepsStarted == 0)
        gallery.finish()
    }

    @Test func becomingActiveImportsThePhotos() async throws {
        let (upstream, clock) = makeTestUpstream()
        let expected = try await galleryFixturePhotos()
        let gallery = ViewModelTester(GalleryViewModel(upstream: upstream))

        await gallery.activate { $0.outputs["loading"] = true }
        await clock.waitForSleeps(1)
        await clock.advance(by: .seconds(1))
        await gallery.settle {
            $0.outputs["loading"] = false
            $0.outputs["photos"] = galleryPhotosOutput(expected)
        }

        #expect(expected.count == 24)
        #expect(
            gallery.state.outputs["photos"]?.arrayValue?.first == [
                "index": 0, "name": "Sunrise over the Li River", "thumbnail": "/upstream/images/photo-p01-thumb.svg",
            ])
        gallery.finish()
    }

    @Test func laterActivationsDoNotImportAgain() async throws {
        let (upstream, clock) = makeTestUpstream()
        let expected = try await galleryFixturePhotos()
        let gallery = ViewModelTester(GalleryViewModel(upstream: upstream))
        await gallery.activate { $0.outputs["loading"] = true }
        await clock.waitForSleeps(1)
        await clock.advance(by: .seconds(1))
        await gallery.settle {
            $0.outputs["loading"] = false
            $0.outputs["photos"] = galleryPhotosOutput(expected)
        }

        await gallery.activate { _ in }

        #expect(clock.sleepsStarted == 1)
        gallery.finish()
    }

    @Test func anImportErrorIsLoggedShownAndLeavesTheGalleryEmpty() async throws {
        let (upstream, clock) = makeTestUpstream([.photos: EndpointSettings(failureRate: 1)])
        let log = GalleryLogRecorder()
        let gallery = ViewModelTester(GalleryViewModel(upstream: upstream, log: log.sink))

        await gallery.activate { $0.outputs["loading"] = true }
        await clock.waitForSleeps(1)
        await clock.advance(by: .seconds(1))
        await gallery.settle {
            $0.outputs["loading"] = false
            $0.outputs["error"] = badNetwork
        }

        #expect(log.messages == ["gallery: could not import photos: photos: 500 Bad Network"])
        #expect(gallery.model.child(at: ["photos", "0"]) == nil)
        gallery.finish()
    }

    @Test func theNextActivationAfterAFailureTriesAgain() async throws {
        let (upstream, clock) = makeTestUpstream([.photos: EndpointSettings(malformedRate: 1)])
        let expected = try await galleryFixturePhotos()
        let gallery = ViewModelTester(GalleryViewModel(upstream: upstream))
        await gallery.activate { $0.outputs["loading"] = true }
        await clock.waitForSleeps(1)
        await clock.advance(by: .seconds(1))
        await gallery.settle {
            $0.outputs["loading"] = false
            $0.outputs["error"] = ["message": "Error JSON Data", "code": 502, "origin": "upstream"]
        }

        upstream.update(UpstreamSettings(seed: 42, endpoints: [:]))
        await gallery.activate {
            $0.outputs["loading"] = true
            $0.outputs["error"] = .null
        }
        await clock.waitForSleeps(2)
        await clock.advance(by: .seconds(1))
        await gallery.settle {
            $0.outputs["loading"] = false
            $0.outputs["photos"] = galleryPhotosOutput(expected)
        }

        gallery.finish()
    }

    @Test func loadRetriesAFailedImportWithoutLeavingThePage() async throws {
        let (upstream, clock) = makeTestUpstream([.photos: EndpointSettings(failureRate: 1)])
        let expected = try await galleryFixturePhotos()
        let gallery = ViewModelTester(GalleryViewModel(upstream: upstream))
        await gallery.activate { $0.outputs["loading"] = true }
        await clock.waitForSleeps(1)
        await clock.advance(by: .seconds(1))
        await gallery.settle {
            $0.outputs["loading"] = false
            $0.outputs["error"] = badNetwork
        }

        // The upstream recovers; the gallery, still active, retries on `load`.
        upstream.update(UpstreamSettings(seed: 42, endpoints: [:]))
        try gallery.execute("load") {
            $0.commands["load"]?.executing = true
            $0.commands["load"]?.enabled = false
        }
        await clock.waitForSleeps(2)
        await gallery.settle {
            $0.outputs["loading"] = true
            $0.outputs["error"] = .null
        }
        await clock.advance(by: .seconds(1))
        await gallery.settle {
            $0.commands["load"]?.executing = false
            $0.commands["load"]?.enabled = true
            $0.outputs["loading"] = false
            $0.outputs["photos"] = galleryPhotosOutput(expected)
        }
        gallery.finish()
    }

    @Test func becomingInactiveCancelsTheImportWithoutAnError() async throws {
        let (upstream, clock) = makeTestUpstream()
        let expected = try await galleryFixturePhotos()
        let log = GalleryLogRecorder()
        let gallery = ViewModelTester(GalleryViewModel(upstream: upstream, log: log.sink))
        await gallery.activate { $0.outputs["loading"] = true }
        await clock.waitForSleeps(1)

        await gallery.deactivate { $0.outputs["loading"] = false }

        #expect(log.messages.isEmpty)
        await gallery.activate { $0.outputs["loading"] = true }
        await clock.waitForSleeps(2)
        await clock.advance(by: .seconds(1))
        await gallery.settle {
            $0.outputs["loading"] = false
            $0.outputs["photos"] = galleryPhotosOutput(expected)
        }
        gallery.finish()
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
