import BinderyHTTP
import BinderyRuntime
import BinderyStore
import HTTPTypes
import Logging

/// The route table: which URL goes to which responder, behind which middleware, documented how.
/// Every fixed route is registered once, here, with its OpenAPI operation; the document served
/// at `/openapi.json` is made from what was registered.
struct BinderyRoutes {
    let configuration: BinderyConfiguration
    let app: BinderyApp
    let sessions: SessionRegistry
    let streams: EventStreams
    let presence: PresenceRelay
    let metrics: BinderyMetrics
    /// The store's writer, for `/metrics` (nil for the memory store).
    let commits: (any GroupCommitReporting)?
    let logger: Logger
    let ready: @Sendable () -> Bool

    /// Builds the router, and the OpenAPI document of its routes. API routes come first; static
    /// files catch what is left.
    func build() -> (router: Router, document: [UInt8]) {
        var table = DocumentedRoutes()
        let resolver = SessionResolver(
            store: sessions, trustForwardedFor: configuration.trustForwardedFor, secureCookies: configuration.secureCookies
        )
        let views = ViewRoutes(
            sessions: resolver, schemas: ViewSchemaIndex(screens: app.screens), streams: streams, presence: presence, metrics: metrics,
            defaultLongPollWait: configuration.longPollWait
        )
        metrics.declareBudgets(of: app.screens)
        let client = configuration.servesClient ? ClientFiles(configuration: configuration, logger: logger) : nil
        // Every answer of the API names the client served, so an open page follows a deploy.
        let named: [any HTTPMiddleware] = client?.version.map { [ClientVersionHeader(version: $0)] } ?? []
        table.group(named + [CrossSiteCheck()]) { group in
            group.add(.post, "/api/sessions", SessionRoutes(store: sessions, resolver: resolver), OpenAPIFixedPaths.createSession)
            group.add(.put, "/api/session", SessionEnsureRoute(resolver: resolver), OpenAPIFixedPaths.ensureSession)
            group.add(.get, "/api/session", SessionInfoRoute(resolver: resolver), OpenAPIUserPaths.sessionInfo)
            if app.users != nil {
                group.add(.post, "/api/session/sign-in", SignInRoute(resolver: resolver), OpenAPIUserPaths.signIn)
                group.add(.post, "/api/session/sign-out", SignOutRoute(resolver: resolver), OpenAPIUserPaths.signOut)
                group.add(
                    .post, "/api/session/sign-out-everywhere", SignOutEverywhereRoute(resolver: resolver),
                    OpenAPIUserPaths.signOutEverywhere
                )
            }
            // Views decide their own Allow: a snapshot, its events and its commands differ.
            for method in [.get, .patch, .post, .put, .delete, .options] as [HTTPRequest.Method] {
                group.add(method, "/api/views/{rest...}", views, nil)
            }
            group.add(
                .get, "/api/events", EventsRoute(sessions: resolver, streams: streams, presence: presence, client: client?.version),
                OpenAPIFixedPaths.events
            )
            for route in app.routes {
                let responder = RouteAccessCheck(access: route.access, resolver: resolver, next: route.responder)
                group.add(route.method, route.path, responder, route.operation)
            }
        }
        table.group(named) { group in
            group.add(.get, "/api/views", ScreenCatalog(screens: app.screens, resolver: resolver), OpenAPIFixedPaths.listScreens)
        }
        let health = HealthRoutes(ready: ready)
        table.add(.get, "/healthz", health, OpenAPIFixedPaths.healthz)
        table.add(.get, "/readyz", health, OpenAPIFixedPaths.readyz)
        table.add(
            .get, "/metrics", MetricsRoute(metrics: metrics, sessions: sessions, streams: streams, commits: commits),
            OpenAPIFixedPaths.metrics
        )
        // The document lists itself, then is made from everything registered.
        table.document(.get, "/openapi.json", OpenAPIFixedPaths.openAPI)
        let document = OpenAPIDocument(
            screens: app.screens, paths: table.paths, additions: app.openAPI, servesClient: client != nil
        )
        let encoded = document.encoded
        table.add(.get, "/openapi.json", OpenAPIRoute(document: encoded), nil)
        if let client { client.register(on: &table.router, screens: app.screens) }
        return (table.router, encoded)
    }
}

/// A router and the OpenAPI operations of its routes, registered together.
struct DocumentedRoutes {
    var router = Router()
    /// `paths` of the OpenAPI document: path item objects by path.
    private(set) var paths: [String: JSONValue] = [:]

    /// Registers `responder` and its OpenAPI `operation` (nil: undocumented, or documented elsewhere).
    mutating func add(_ method: HTTPRequest.Method, _ path: String, _ responder: some HTTPResponder, _ operation: JSONValue?) {
        router.add(method, path, responder)
        if let operation { document(method, path, operation) }
    }

    /// Records the OpenAPI `operation` of `method` on `path`.
    mutating func document(_ method: HTTPRequest.Method, _ path: String, _ operation: JSONValue) {
        var item = paths[path]?.objectValue ?? [:]
        item[method.rawValue.lowercased()] = operation
        paths[path] = .object(item)
    }

    /// Registers the routes `register` adds behind `middleware`.
    mutating func group(_ middleware: [any HTTPMiddleware], _ register: (inout Group) -> Void) {
        var group = Group()
        register(&group)
        router.group(middleware) { routes in
            for route in group.routes { routes.add(route.method, route.path, route.responder) }
        }
        for route in group.routes {
            if let operation = route.operation { document(route.method, route.path, operation) }
        }
    }

    /// The routes of one group, before they are registered.
    struct Group {
        fileprivate var routes: [(method: HTTPRequest.Method, path: String, responder: any HTTPResponder, operation: JSONValue?)] = []

        /// Adds `responder` and its OpenAPI `operation`.
        mutating func add(_ method: HTTPRequest.Method, _ path: String, _ responder: any HTTPResponder, _ operation: JSONValue?) {
            routes.append((method, path, responder, operation))
        }
    }
}
