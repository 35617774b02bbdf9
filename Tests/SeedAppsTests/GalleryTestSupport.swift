import BinderyRuntime
import BinderyTestSupport
import BinderyUpstream
import Synchronization
import Testing

/// Collects what a view model logs through its `@Sendable (String) -> Void` sink.
final class GalleryLogRecorder: Sendable {
    private let lines = Mutex<[String]>([])

    /// The lines logged so far.
    var messages: [String] { lines.withLock { $0 } }

    /// The sink to hand to a view model.
    var sink: @Sendable (String) -> Void {
        { [self] line in self.lines.withLock { $0.append(line) } }
    }
}

/// Photos made up for tests that need no upstream data.
func galleryTestPhotos(_ count: Int) -> [Photo] {
    (0..<count).map { index in
        let id = "p" + (index + 1 < 10 ? "0" : "") + String(index + 1)
        return Photo(id: id, name: "Photo \(index + 1)", photographer: "Ash", thumbnailURL: "/upstream/images/photo-\(id)-thumb.svg")
    }
}

/// The photos the fake upstream serves, read from an upstream of their own.
func galleryFixturePhotos() async throws -> [Photo] {
    let (upstream, clock) = makeTestUpstream()
    return try await upstream.peekPhotos(clock)
}

/// The gallery's `photos` output for `photos`: `[{"index", "name", "thumbnail"}]`.
func galleryPhotosOutput(_ photos: [Photo]) -> JSONValue {
    .array(
        photos.enumerated().map { index, photo in
            ["index": .int(index), "name": .string(photo.name), "thumbnail": .string(photo.thumbnailURL)]
        })
}

/// The upstream's seeded failure as an `error` output.
let badNetwork: JSONValue = ["message": "Bad Network", "code": 500, "origin": "upstream"]

extension UpstreamProvider {
    /// The photo list as the upstream serves it, read on a clock that is advanced for it.
    func peekPhotos(_ clock: CountingClock) async throws -> [Photo] {
        let started = clock.sleepsStarted
        let task = Task { try await self.photos() }
        await clock.waitForSleeps(started + 1)
        await clock.advance(by: .seconds(1))
        return try await task.value
    }
}
