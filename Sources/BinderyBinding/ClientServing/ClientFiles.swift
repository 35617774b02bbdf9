import BinderyBrowserClient
import BinderyHTTP
import BinderyRuntime
import Foundation
import Logging

/// The thin client a server serves at `/`: the app's own public directory layered over Bindery's
/// client (`Sources/BinderyBrowserClient/Client`), its pages at every screen's URL, and a page rather
/// than a problem for a browser that asks for an address that is neither.
struct ClientFiles {
    /// The layers' folders, the app's first.
    let roots: [String]
    /// Which client is served (the fingerprint the API's answers and event streams tell); nil
    /// when none is.
    let version: ClientVersion?

    /// The layers `configuration` names: its ``BinderyConfiguration/publicDirectory`` (when it
    /// exists) over its ``BinderyConfiguration/clientDirectory`` or the client found by
    /// ``locateClient()``. A missing client is logged: the API is served without pages.
    init(configuration: BinderyConfiguration, logger: Logger) {
        var roots: [String] = []
        if let own = configuration.publicDirectory, Self.isDirectory(own) { roots.append(own) }
        if let client = configuration.clientDirectory ?? Self.locateClient() {
            roots.append(client)
        } else {
            logger.warning("The thin client's files were not found next to the executable nor in Bindery's sources: serving the API only")
        }
        self.roots = roots
        version = roots.isEmpty ? nil : ClientVersion(roots: StaticFiles(roots: roots).rootPaths)
    }

    /// Bindery's own client, the `BinderyBrowserClient` target's files: its resource bundle next to
    /// the executable, else its sources (``BrowserClientFiles/directory``).
    static func locateClient() -> String? {
        BrowserClientFiles.directory?.path
    }

    private static func isDirectory(_ path: String) -> Bool {
        var directory: ObjCBool = false
        return FileManager.default.fileExists(atPath: path, isDirectory: &directory) && directory.boolValue
    }

    /// Registers the pages and files: every screen's URL and its children's get the page, `/` and
    /// the app's own pages (`data-page`) too; anything else is a file of a layer, or the fallback.
    func register(on router: inout Router, screens: [Screen]) {
        guard !roots.isEmpty else { return }
        let files = StaticFiles(roots: roots)
        let shell = PageShell(roots: files.rootPaths, catalogue: ScreenCatalog(screens: screens).body, version: version)
        for screen in screens {
            router.add(.get, "/\(screen.name)", shell)
            router.add(.get, "/\(screen.name)/{rest...}", shell)
        }
        // An app's own pages without a view model (`data-page`), as found at start.
        for page in ClientTree(roots: files.rootPaths).declaredPages
        where !screens.contains(where: { page == "/\($0.name)" || page.hasPrefix("/\($0.name)/") }) {
            router.add(.get, page, shell)
        }
        router.add(.get, "/_v/{fingerprint}/{rest...}", FingerprintedFiles(files: files, shell: shell))
        router.add(.get, "/", shell)
        router.add(.get, "/index.html", shell)
        // The icon browsers ask for by name is the SVG one the page links.
        router.add(
            .get, "/favicon.ico",
            immediate: { _ in
                Response(status: .movedPermanently, headers: [.location: "/favicon.svg"], body: .bytes([]))
            },
            handler: { _ in
                Response(status: .movedPermanently, headers: [.location: "/favicon.svg"], body: .bytes([]))
            })
        router.add(.get, "/{rest...}", PageFallback(files: files, shell: shell, screens: Set(screens.map(\.name))))
    }
}
