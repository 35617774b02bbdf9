import BinderyRuntime
import BinderyUpstream
import Observation

/// The full-size page of one photo (seed 004's `FRPFullSizePhotoViewModel`), built by the
/// gallery from its photo array and the index of the photo the user picked.
///
/// Its photo is ``photoModelAtIndex(_:)`` of the initial index; watching the page activates
/// that photo, which loads its image. `previous` and `next` answer the neighbours' pages.
@Observable
public final class FullSizePhotoViewModel: ViewModel {
    /// The gallery's photos (the seed's `model`).
    public let photos: [Photo]
    /// The index of the photo this page shows.
    public let initialPhotoIndex: Int

    @ObservationIgnored private let upstream: UpstreamProvider
    @ObservationIgnored private let log: @Sendable (String) -> Void
    @ObservationIgnored private var photoModels: [Int: PhotoViewModel] = [:]

    /// Goes to the previous photo's page; enabled when there is one.
    @ObservationIgnored public private(set) lazy var previous = Command(
        "previous",
        enabled: { [unowned self] in GalleryRules.contains(initialPhotoIndex - 1, count: photos.count) },
        immediate: { [unowned self] in CommandResult(navigate: GalleryRules.destination(photoIndex: initialPhotoIndex - 1)) }
    )

    /// Goes to the next photo's page; enabled when there is one.
    @ObservationIgnored public private(set) lazy var next = Command(
        "next",
        enabled: { [unowned self] in GalleryRules.contains(initialPhotoIndex + 1, count: photos.count) },
        immediate: { [unowned self] in CommandResult(navigate: GalleryRules.destination(photoIndex: initialPhotoIndex + 1)) }
    )

    /// Creates the page of `photos[initialIndex]`.
    public init(
        photos: [Photo], initialIndex: Int, upstream: UpstreamProvider,
        log: @escaping @Sendable (String) -> Void = { _ in }
    ) {
        self.photos = photos
        self.initialPhotoIndex = initialIndex
        self.upstream = upstream
        self.log = log
    }

    /// The view model of the photo at `index`, made once per index; nil below 0 and at or past
    /// the count.
    public func photoModelAtIndex(_ index: Int) -> PhotoViewModel? {
        guard GalleryRules.contains(index, count: photos.count) else { return nil }
        if let model = photoModels[index] { return model }
        let model = PhotoViewModel(photo: photos[index], index: index, upstream: upstream, log: log)
        photoModels[index] = model
        return model
    }

    /// The view model of the photo this page shows; nil when the initial index is out of bounds.
    public var initialPhotoModel: PhotoViewModel? { photoModelAtIndex(initialPhotoIndex) }

    /// The title of the page: the initial photo's name.
    public var initialPhotoName: String? { initialPhotoModel?.photoName }

    /// `initialPhotoIndex`, `initialPhotoName`, `count` and `photo` (the photo's outputs).
    public var outputs: [String: JSONValue] {
        [
            "initialPhotoIndex": .int(initialPhotoIndex),
            "initialPhotoName": .optional(initialPhotoName),
            "count": .int(photos.count),
            "photo": initialPhotoModel.map { .object($0.outputs) } ?? .null,
        ]
    }

    /// `previous` and `next`.
    public var commands: [Command] { [previous, next] }

    /// Activates the shown photo, which loads its image.
    public func whileActive() async {
        await initialPhotoModel?.whileActive()
    }
}
