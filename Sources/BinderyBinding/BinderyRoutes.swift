import BinderyHTTP
import BinderyRuntime
import BinderyStore
import BinderyUpstream
import HTTPTypes

/// The route table: which URL goes to which responder.
struct BinderyRoutes {
    let configuration: BinderyConfiguration
    let screens: [Screen]
    let sessions: SessionStore
    let streams: EventStreams
    let upstream: UpstreamProvider
    let metrics: BinderyMetrics
    /// The store's writer, for `/metrics` (nil for the memory store).
    let commits: (any GroupCommitReporting)?
    let ready: @Sendable () -> Bool

    /// Builds the router. API routes come first; static files catch what is left.
    func router() -> Router {
        var router = Router()
        let resolver = SessionResolver(
            store: sessions, trustForwardedFor: configuration.trustForwardedFor, secureCookies: configuration.secureCookies
        )
        router.add(.post, "/api/sessions", SessionRoutes(store: sessions, resolver: resolver))
        router.add(.get, "/api/views", ScreenCatalog(screens: screens))
        let views = ViewRoutes(
            sessions: resolver, schemas: ViewSchemaIndex(screens: screens), streams: streams, metrics: metrics,
            defaultLongPollWait: configuration.longPollWait
        )
        // Views decide their own Allow: a snapshot, its events and its commands differ.
        for method in [.get, .patch, .post, .put, .delete, .options] as [HTTPRequest.Method] {
            router.add(method, "/api/views/{rest...}", views)
        }
        if configuration.upstreamControl {
            let settings = UpstreamSettingsRoutes(upstream: upstream)
            router.add(.get, "/api/upstream", settings)
            router.add(.patch, "/api/upstream", settings)
        }
        router.add(.get, "/upstream/images/{name}", UpstreamImageRoutes(upstream: upstream))
        let health = HealthRoutes(ready: ready)
        router.add(.get, "/metrics", MetricsRoute(metrics: metrics, sessions: sessions, streams: streams, commits: commits))
        router.add(.get, "/openapi.json", OpenAPIRoute(document: OpenAPIDocument(screens: screens, configuration: configuration)))
        router.add(.get, "/healthz", health)
        router.add(.get, "/readyz", health)
        if let directory = configuration.publicDirectory {
            let files = StaticFiles(root: directory)
            let shell = PageShell(files: files)
            for screen in screens {
                router.add(.get, "/\(screen.name)", shell)
                router.add(.get, "/\(screen.name)/{rest...}", shell)
            }
            router.add(.get, "/", files)
            // The icon browsers ask for by name is the SVG one the page links.
            router.add(.get, "/favicon.ico", immediate: { _ in
                Response(status: .movedPermanently, headers: [.location: "/favicon.svg"], body: .bytes([]))
            }, handler: { _ in
                Response(status: .movedPermanently, headers: [.location: "/favicon.svg"], body: .bytes([]))
            })
            router.add(.get, "/{rest...}", PageFallback(files: files, shell: shell, screens: Set(screens.map(\.name))))
        }
        return router
    }
}
