import BinderyUpstream
import Synchronization

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
