import Bindery
import BinderyUpstream
import Observation

/// The photo gallery (seed 004's `FRPGalleryViewModel`).
///
/// The photos are imported when the gallery first becomes active, not in `init`. An import
/// error is logged and recorded in `error`, and leaves the gallery empty (the seed's
/// `logError` + `catchTo: empty`); the next activation tries again, and so does the `load`
/// command (a retry the client offers without leaving the page). Once an import succeeded,
/// later activations import nothing. The gallery builds the full-size page of each photo
/// (`gallery/photos/<index>`) from its photo array.
@Observable
public final class GalleryViewModel: ViewModel {
    /// The imported photos (the seed's `model`).
    public private(set) var photos: [Photo] = []
    /// Whether an import is running.
    public private(set) var loading = false
    /// Why the last import failed.
    public private(set) var error: ExecutionFailure?
    /// Whether an import succeeded.
    public private(set) var isImported = false

    @ObservationIgnored private let upstream: UpstreamProvider
    @ObservationIgnored private let log: @Sendable (String) -> Void
    @ObservationIgnored private var fullSizeModels: [Int: FullSizePhotoViewModel] = [:]
    /// Counts imports, so that only the newest one ends `loading`.
    @ObservationIgnored private var importCount = 0
    /// The live state of `load` and `select`.
    public let commandStates = CommandStates()

    /// Creates an empty gallery that imports from `upstream` when it becomes active.
    public init(upstream: UpstreamProvider, log: @escaping @Sendable (String) -> Void = { _ in }) {
        self.upstream = upstream
        self.log = log
    }

    /// Outputs `photos` (`[{"index", "name", "thumbnail"}]`), `loading` and `error`; commands
    /// `load` (retry a failed import) and `select`; child route `photos/{index}`, the full-size
    /// pages. A page asked for before
    /// the photos were imported (a shared URL opened in a new session) imports them first.
    public static let declaration = ViewModelDeclaration<GalleryViewModel>(
        "Gallery",
        summary: "The photo gallery (seed 004): photos imported from the upstream when someone watches it.",
        outputs: [
            .init(
                "photos",
                schema: .array(.named("GalleryPhoto", .object(["index": .int, "name": .text, "thumbnail": .text])))
            ) { model in
                .array(
                    model.photos.enumerated().map { index, photo in
                        .object(["index": .int(index), "name": .string(photo.name), "thumbnail": .string(photo.thumbnailURL)])
                    })
            },
            .boolean("loading") { $0.loading },
            .failure("error") { $0.error },
        ],
        commands: [
            .deferred(
                "load",
                summary: "Imports the photos again after a failed import (the retry a failed gallery offers); "
                    + "does nothing once they are imported.",
                prepare: { model, _ in
                    {
                        await model.importPhotos(); return .none
                    }
                }
            ),
            .immediate(
                "select", summary: "Opens a photo: answers its full-size page.",
                argument: SelectPhoto.self, navigates: true,
                run: { model, argument throws(ViewModelError) in
                    let index = try model.photoIndex(selectedBy: argument)
                    return CommandResult(navigate: model.page(to: "photo", String(index)))
                }
            ),
        ],
        children: [
            ChildRoute(
                "photo", title: "Photo", titleMember: "initialPhotoName", segment: "photos", parameter: "index",
                parameterSchema: .integer(minimum: 0), child: FullSizePhotoViewModel.declaration.schema,
                resolve: { model, segment in model.fullSizePhotoViewModel(segment: segment) },
                prepare: { model in await model.importPhotos() }
            )
        ]
    )

    /// The full-size page of the photo at `index`; nil when out of bounds.
    public func fullSizePhotoViewModel(at index: Int) -> FullSizePhotoViewModel? {
        guard GalleryRules.contains(index, count: photos.count) else { return nil }
        if let model = fullSizeModels[index] { return model }
        let model = FullSizePhotoViewModel(photos: photos, initialIndex: index, upstream: upstream, log: log)
        fullSizeModels[index] = model
        return model
    }

    /// Imports the photos on the first activation (and after a failed or cancelled one).
    public func whileActive() async {
        await importPhotos()
    }

    /// Imports the photos unless they are already imported (the seed's `importPhotosSignal`).
    public func importPhotos() async {
        guard !isImported else { return }
        importCount += 1
        let attempt = importCount
        loading = true
        error = nil
        defer { if attempt == importCount { loading = false } }
        do {
            let imported = try await upstream.photos()
            guard attempt == importCount else { return }
            setPhotos(imported)
            isImported = true
        } catch  where error.isCancellation || Task.isCancelled {
            return
        } catch {
            log("gallery: could not import photos: \(error)")
            guard attempt == importCount else { return }
            setPhotos([])
            self.error = ExecutionFailure(error)
        }
    }

    private func setPhotos(_ newPhotos: [Photo]) {
        fullSizeModels = [:]
        photos = newPhotos
    }

    private func fullSizePhotoViewModel(segment: String) -> FullSizePhotoViewModel? {
        GalleryRules.index(inSegment: segment, count: photos.count).flatMap(fullSizePhotoViewModel(at:))
    }

    /// The index named by a `select` argument, or the reason it names none.
    private func photoIndex(selectedBy argument: SelectPhoto) throws(ViewModelError) -> Int {
        let index = argument.index
        guard GalleryRules.contains(index, count: photos.count) else {
            throw .invalidArgument(command: "select", reason: "no photo has index \(index) (there are \(photos.count))")
        }
        return index
    }

    /// `select`'s argument: the photo's index.
    struct SelectPhoto: CommandArgument {
        let index: Int
        static let schema = Schema.named("SelectPhotoArgument", .object(["index": .integer(minimum: 0)]))
    }
}
