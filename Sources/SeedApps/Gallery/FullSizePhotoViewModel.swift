import Bindery
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
    /// The live state of `previous` and `next`.
    public let commandStates = CommandStates()

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

    /// Whether there is a photo `offset` places from this one.
    public func hasNeighbour(_ offset: Int) -> Bool {
        GalleryRules.contains(initialPhotoIndex + offset, count: photos.count)
    }

    /// Outputs `initialPhotoIndex`, `initialPhotoName`, `count` and `photo` (the photo's
    /// outputs); commands `previous` and `next`, enabled when there is such a photo.
    public static let declaration = ViewModelDeclaration<FullSizePhotoViewModel>(
        "FullSizePhoto",
        summary: "The full-size page of one photo (seed 004), built by the gallery.",
        outputs: [
            .integer("initialPhotoIndex") { $0.initialPhotoIndex },
            .optionalString("initialPhotoName") { $0.initialPhotoName },
            .integer("count") { $0.photos.count },
            .init("photo", schema: .nullable(PhotoViewModel.declaration.schema.outputsShape)) { model in
                model.initialPhotoModel.map { photo in
                    .object(Dictionary(uniqueKeysWithValues: PhotoViewModel.declaration.outputs.map { ($0.name, photo.output($0.name) ?? .null) }))
                } ?? .null
            },
        ],
        commands: [
            .immediate(
                "previous", summary: "Goes to the previous photo's page.", navigates: true,
                enabled: { $0.hasNeighbour(-1) },
                run: { model, _ in CommandResult(navigate: model.siblingPage(String(model.initialPhotoIndex - 1))) }
            ),
            .immediate(
                "next", summary: "Goes to the next photo's page.", navigates: true,
                enabled: { $0.hasNeighbour(1) },
                run: { model, _ in CommandResult(navigate: model.siblingPage(String(model.initialPhotoIndex + 1))) }
            ),
        ]
    )

    /// Activates the shown photo, which loads its image.
    public func whileActive() async {
        await initialPhotoModel?.whileActive()
    }
}
