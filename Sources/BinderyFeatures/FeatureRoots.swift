import BinderyRuntime
import BinderyUpstream

/// The screens of a Bindery session: the login form, the POI list and the photo gallery.
public struct FeatureRoots: ViewModelRoots {
    /// Every screen's path and title, in the order a client lists them.
    public static let screens: [(path: String, title: String)] = [
        ("form", "Login form"),
        ("list", "Points of interest"),
        ("gallery", "Photo gallery"),
    ]

    /// The upstream the list and the gallery load from.
    public let upstream: UpstreamProvider
    /// Where view models report failures they swallow (the gallery's import errors).
    private let log: @Sendable (String) -> Void

    /// Creates the roots of one session, loading from `upstream` and logging to `log`.
    public init(upstream: UpstreamProvider, log: @escaping @Sendable (String) -> Void = { _ in }) {
        self.upstream = upstream
        self.log = log
    }

    /// `["form", "list", "gallery"]`.
    public var names: [String] { Self.screens.map(\.path) }

    /// Builds a fresh root view model for one session.
    public func makeRoot(named name: String) -> (any ViewModel)? {
        switch name {
        case "form": FormViewModel()
        case "list": ListViewModel(upstream: upstream)
        case "gallery": GalleryViewModel(upstream: upstream, log: log)
        default: nil
        }
    }
}
