import Bindery
import BinderyUpstream
import CoreMetrics

/// The seed apps as one Bindery app: the five screens of the articles (form, list, gallery,
/// courses, recipes) over the built-in fake upstream, the shared recipe book, the upstream's
/// routes — `/upstream/images/{name}` always, `/api/upstream` (its settings) when
/// `upstreamControl` is on — and sign-in with the upstream's accounts (a phone number and a
/// password). Built only on the public API of `Bindery`, as any app is.
public struct SeedApps: Sendable {
    /// The fake upstream every session calls.
    public let upstream: UpstreamProvider
    /// The recipes every session shares.
    public let recipes: RecipeBook
    /// Each user's favourite recipes.
    public let favourites: FavouriteRecipes
    /// Whether `/api/upstream` is served.
    public let upstreamControl: Bool
    /// Who may change the upstream's settings (`PATCH /api/upstream`): administrators by default.
    public let upstreamChangedBy: Access<Request>
    private let clock: any Clock<Duration>
    private let logger: Logger

    /// The seed apps on a server's `context`: the upstream's calls are timed on its clock and
    /// measured in its metrics (`bindery_upstream_call_duration_seconds`,
    /// `bindery_upstream_failures_total`), swallowed failures logged to its log.
    ///
    /// `recipes` is the book the server opens over its store (tests give other first-start recipes).
    public init(
        upstream settings: UpstreamSettings = .seedDefaults, upstreamControl: Bool = true,
        upstreamChangedBy: Access<Request> = .role(RecipeRules.administrator), recipes: RecipeBook = .recipes(),
        context: AppContext
    ) {
        self.upstreamChangedBy = upstreamChangedBy
        let metrics = context.metrics
        context.describeMetric(
            "bindery_upstream_call_duration_seconds", help: "Time the upstream took to answer a call, by endpoint."
        )
        context.describeMetric("bindery_upstream_failures_total", help: "Upstream calls that failed, by endpoint.")
        upstream = UpstreamProvider(settings: settings, clock: context.clock) { call in
            let endpoint = [("endpoint", call.endpoint.rawValue)]
            Timer(label: "bindery_upstream_call_duration_seconds", dimensions: endpoint, factory: metrics)
                .recordNanoseconds(call.duration.nanosecondCount)
            if call.error != nil {
                Counter(label: "bindery_upstream_failures_total", dimensions: endpoint, factory: metrics).increment()
            }
        }
        self.recipes = recipes
        self.favourites = .favourites()
        self.upstreamControl = upstreamControl
        clock = context.clock
        logger = context.logger
    }

    /// The app: the screens, the recipe book, the upstream's routes and its accounts.
    public var app: BinderyApp {
        let logger = logger
        var routes = [UpstreamImageRoutes.route(upstream: upstream)]
        if upstreamControl { routes += UpstreamSettingsRoutes.routes(upstream: upstream, changedBy: upstreamChangedBy) }
        return BinderyApp(
            screens: FeatureScreens.all(
                upstream: upstream, log: { logger.warning("\($0)") }, recipes: recipes, favourites: favourites, clock: clock
            ),
            sharedModels: [recipes, favourites],
            routes: routes,
            openAPI: OpenAPIAdditions(
                schemas: upstreamControl ? UpstreamOpenAPI.schemas : [:],
                tags: [["name": "upstream", "description": "The built-in fake upstream."]]
            ),
            users: Self.users(of: upstream)
        )
    }

    /// Sign-in against the upstream's accounts service: the username is the phone number. Its
    /// failures (latency, "Bad Network") fail the sign-in (502), nothing changed.
    static func users(of upstream: UpstreamProvider) -> Users {
        Users { credentials in
            try await upstream.signIn(phone: credentials.username, password: credentials.password).map { account in
                User(id: account.id, name: account.name, roles: Set(account.roles))
            }
        }
    }
}

extension Duration {
    /// The duration in whole nanoseconds (saturating).
    var nanosecondCount: Int64 {
        let (seconds, attoseconds) = components
        return seconds.multipliedReportingOverflow(by: 1_000_000_000).partialValue + attoseconds / 1_000_000_000
    }
}
