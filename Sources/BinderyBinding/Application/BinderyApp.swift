import BinderyRuntime
import CoreMetrics
import Logging

/// What an app serves: its screens, the models its sessions share, any HTTP routes of its own,
/// and who signs in. A ``BinderyServer`` runs it with a ``BinderyConfiguration``.
///
/// ```swift
/// let app = BinderyApp(screens: [Screen("counter", title: "Counter") { CounterViewModel() }])
/// ```
public struct BinderyApp: Sendable {
    /// The screens, in the order a client lists them.
    public var screens: [Screen]
    /// The models every session shares (`SharedCollection`s); the server opens them over its
    /// store before it serves and follows their changes across nodes.
    public var sharedModels: [any SharedModel]
    /// HTTP routes of the app's own, served next to the view models and listed in the OpenAPI
    /// document. Their unsafe methods refuse cross-site browser requests, as view models do.
    public var routes: [Route]
    /// Schemas and tags the routes' OpenAPI operations refer to.
    public var openAPI: OpenAPIAdditions
    /// How people sign in (`Users`); nil: every session stays anonymous, and the sign-in routes
    /// are not served.
    public var users: Users?

    /// An app of `screens`, `sharedModels` (`SharedCollection`s and `UserRecords`), `routes`,
    /// and `users` who sign in.
    public init(
        screens: [Screen], sharedModels: [any SharedModel] = [], routes: [Route] = [],
        openAPI: OpenAPIAdditions = OpenAPIAdditions(), users: Users? = nil
    ) {
        self.screens = screens
        self.sharedModels = sharedModels
        self.routes = routes
        self.openAPI = openAPI
        self.users = users
    }
}

/// What a server gives the app it builds: its clock, its log and its metrics, so the app's own
/// work is timed, logged and measured with the server's.
public struct AppContext: Sendable {
    /// The server's clock (tests inject their own).
    public let clock: any Clock<Duration>
    /// The server's log.
    public let logger: Logger
    /// The server's metrics registry, exposed at `/metrics` (swift-metrics: pass it as `factory:`;
    /// ``describeMetric(_:help:)`` gives a family its help text).
    public let metrics: any MetricsFactory

    /// A context of these services.
    public init(clock: any Clock<Duration>, logger: Logger, metrics: any MetricsFactory) {
        self.clock = clock
        self.logger = logger
        self.metrics = metrics
    }
}

/// The OpenAPI components and tags an app's routes add to the server's document.
public struct OpenAPIAdditions: Sendable {
    /// Schemas by name (`#/components/schemas/<name>`).
    public var schemas: [String: JSONValue]
    /// Tags (`{"name": …, "description": …}`), listed after the screens' tags.
    public var tags: [JSONValue]

    /// Additions of `schemas` and `tags`.
    public init(schemas: [String: JSONValue] = [:], tags: [JSONValue] = []) {
        self.schemas = schemas
        self.tags = tags
    }
}
