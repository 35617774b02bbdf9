import SeedApps
import BinderyRuntime
import BinderyTestSupport
import BinderyUpstream
import Testing

/// The gallery served by a session's ``ViewModelGraph``: watching activates, unwatching cancels.
@MainActor
@Suite("Gallery in a view-model graph", .timeLimit(.minutes(1)))
struct GalleryGraphTests {
    @Test func watchingImportsThenPagesLoadTheirPhotos() async throws {
        let (upstream, clock) = makeTestUpstream()
        let log = GalleryLogRecorder()
        let graph = ViewModelGraph(screens: FeatureScreens.all(upstream: upstream, log: log.sink))
        let gallery = try await graph.watch("gallery", after: nil, send: { _ in }, end: {})
        await clock.waitForSleeps(1)
        #expect(try await graph.snapshot("gallery").output("loading") == true)
        await clock.advance(by: .seconds(1))
        await settle { (try? await graph.snapshot("gallery").output("loading")) == false }
        guard case .array(let photos)? = try await graph.snapshot("gallery").output("photos") else {
            Issue.record("no photos")
            return
        }
        #expect(!photos.isEmpty)

        let page = try await graph.snapshot("gallery/photos/3")
        #expect(try page.output("initialPhotoIndex") == 3)
        #expect(try page.output("photo")?.objectValue?["loading"] == false)
        await #expect(throws: ViewModelError.notFound(path: "gallery/photos/\(photos.count)")) {
            try await graph.snapshot("gallery/photos/\(photos.count)")
        }

        let watch = try await graph.watch("gallery/photos/3", after: nil, send: { _ in }, end: {})
        await clock.waitForSleeps(2)
        #expect(try await graph.snapshot("gallery/photos/3").output("photo")?.objectValue?["loading"] == true)
        await clock.advance(by: .seconds(1))
        await settle {
            (try? await graph.snapshot("gallery/photos/3").output("photo"))?.objectValue?["loading"] == false
        }
        let photo = try await graph.snapshot("gallery/photos/3").output("photo")?.objectValue
        #expect(photo?["photoImage"]?.stringValue?.hasSuffix("-full.svg") == true)
        #expect(photo?["error"] == .null)

        await graph.unwatch("gallery/photos/3", id: watch)
        await graph.unwatch("gallery", id: gallery)
        #expect(log.messages.isEmpty)
        await graph.close()
    }

    @Test func aSharedPhotoURLInANewSessionImportsTheGalleryFirst() async throws {
        let (upstream, clock) = makeTestUpstream()
        let graph = ViewModelGraph(screens: FeatureScreens.all(upstream: upstream))
        let opening = Task { try await graph.snapshot("gallery/photos/2") }
        await clock.waitForSleeps(1)
        await clock.advance(by: .seconds(1))
        let page = try await opening.value
        #expect(try page.output("initialPhotoIndex") == 2)
        #expect(try await graph.snapshot("gallery").output("loading") == false)
        await #expect(throws: ViewModelError.notFound(path: "gallery/photos/999")) {
            try await graph.snapshot("gallery/photos/999")
        }
        await graph.close()
    }

    @Test func unwatchingAPageCancelsItsFetch() async throws {
        let (upstream, clock) = makeTestUpstream()
        let graph = ViewModelGraph(screens: FeatureScreens.all(upstream: upstream))
        let gallery = try await graph.watch("gallery", after: nil, send: { _ in }, end: {})
        await clock.waitForSleeps(1)
        await clock.advance(by: .seconds(1))
        await settle { (try? await graph.snapshot("gallery/photos/0")) != nil }

        let watch = try await graph.watch("gallery/photos/0", after: nil, send: { _ in }, end: {})
        await clock.waitForSleeps(2)
        #expect(try await graph.snapshot("gallery/photos/0").output("photo")?.objectValue?["loading"] == true)
        await graph.unwatch("gallery/photos/0", id: watch)
        await settle {
            (try? await graph.snapshot("gallery/photos/0").output("photo"))?.objectValue?["loading"] == false
        }

        let photo = try await graph.snapshot("gallery/photos/0").output("photo")?.objectValue
        #expect(photo?["photoImage"] == .null)
        #expect(photo?["error"] == .null)
        try await clock.base.checkSuspension()
        await graph.unwatch("gallery", id: gallery)
        await graph.close()
    }
}
