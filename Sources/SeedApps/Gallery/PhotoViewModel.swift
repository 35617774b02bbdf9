import Bindery
import BinderyUpstream
import Observation

/// One photo in full size (seed 004's `FRPPhotoViewModel`).
///
/// Becoming active fetches the photo's details from the upstream (not `init`: seed 004's
/// `didBecomeActiveSignal`): `loading` is true meanwhile, then `photoImage` is the full-size
/// image's URL. A failure is kept in `error`; becoming inactive cancels the fetch without an
/// error. Once the image is loaded, later activations fetch nothing.
@Observable
public final class PhotoViewModel: ViewModel {
    /// The photo (the seed's `model`).
    public let photo: Photo
    /// The photo's index in the gallery.
    public let index: Int
    /// Whether the details are being fetched.
    public private(set) var loading = false
    /// The URL of the full-size image, once fetched.
    public private(set) var photoImage: String?
    /// Why the last fetch failed.
    public private(set) var error: ExecutionFailure?

    @ObservationIgnored private let upstream: UpstreamProvider
    @ObservationIgnored private let log: @Sendable (String) -> Void
    /// Counts fetches, so that only the newest one ends `loading`.
    @ObservationIgnored private var fetchCount = 0
    /// A photo has no commands.
    public let commandStates = CommandStates()

    /// Creates the view model of `photo`, the `index`-th of its gallery.
    public init(
        photo: Photo, index: Int, upstream: UpstreamProvider, log: @escaping @Sendable (String) -> Void = { _ in }
    ) {
        self.photo = photo
        self.index = index
        self.upstream = upstream
        self.log = log
    }

    /// The photo's name.
    public var photoName: String { photo.name }

    /// Outputs `index`, `photoName`, `loading`, `photoImage` and `error`.
    public static let declaration = ViewModelDeclaration<PhotoViewModel>(
        "Photo",
        summary: "One photo in full size (seed 004): its details load while someone watches it.",
        outputs: [
            .integer("index") { $0.index },
            .string("photoName") { $0.photoName },
            .boolean("loading") { $0.loading },
            .optionalString("photoImage") { $0.photoImage },
            .failure("error") { $0.error },
        ]
    )

    /// Fetches the full-size image unless it is already loaded.
    public func whileActive() async {
        await downloadPhotoDetails()
    }

    /// Fetches the photo's details and keeps the full-size image (the seed's
    /// `downloadPhotoModelDetails`).
    public func downloadPhotoDetails() async {
        guard photoImage == nil else { return }
        fetchCount += 1
        let fetch = fetchCount
        loading = true
        error = nil
        defer { if fetch == fetchCount { loading = false } }
        do {
            let details = try await upstream.photoDetails(id: photo.id)
            photoImage = details.fullSizeURL
        } catch  where error.isCancellation || Task.isCancelled {
            return
        } catch {
            log("gallery: could not fetch photo details of \(photo.id): \(error)")
            if fetch == fetchCount { self.error = ExecutionFailure(error) }
        }
    }
}
