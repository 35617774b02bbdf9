import BinderyHTTP
import BinderyRuntime
import Foundation
import HTTPTypes
import Synchronization

/// Serves the thin client's page for `/` and every page URL (`/counter`, `/list/items/3`), so
/// every screen has a shareable URL the client routes itself.
///
/// The page is the client's `index.html` with every screen's files of any layer put in (the
/// app's layer wins a name): the templates of `screens/<name>.html` where the page says
/// `<!-- bindery:screens -->`, a link to each `screens/<name>.css` where it says
/// `<!-- bindery:styles -->`, and the list of `screens/<name>.js` modules the client imports. A new
/// screen is thus files of its own, never an edit of `index.html`.
///
/// Loading takes one round trip after the page: the page's style sheets and the screens' are one
/// file, and its modules one more (``ClientBundle``), both fingerprinted
/// (`/_v/<fingerprint>/_bundle/…`) and cached for a year by ``FingerprintedFiles``, as is every
/// other file the page names (`/_v/<fingerprint>/favicon.svg`). The page itself is revalidated on
/// each load (`no-cache`) and sent gzip-compressed when accepted. It is made again when any file
/// of the layers changes (a developer's edit shows on reload, under a new fingerprint), and names
/// its fingerprint in `<meta name="bindery-client">`, which the API's answers compare with
/// (``ClientVersion``: an open page follows a deploy).
final class PageShell: HTTPResponder, Sendable {
    /// The made page, and the tree it was made from.
    private struct Made {
        let tree: ClientTree
        let fingerprint: String
        let bytes: [UInt8]
        let gzipped: [UInt8]?
        let tag: EntityTag
        let bundle: ClientBundle
    }

    private let roots: [String]
    /// The screen catalogue (`GET /api/views`), put in the page so the client need not ask.
    private let catalogue: String
    private let made = Mutex<Made?>(nil)
    /// Told of each page made from changed files, so the API's answers name the client at once.
    private let version: ClientVersion?

    /// The shell over `roots`, the first winning a name, with the `catalogue` of the screens;
    /// `version` is told the fingerprint of each new page.
    init(roots: [String], catalogue: [UInt8], version: ClientVersion? = nil) {
        self.roots = roots
        self.version = version
        // In a <script> element, "</" must not appear; JSON allows "<\/".
        self.catalogue = String(decoding: catalogue, as: UTF8.self).replacingOccurrences(of: "</", with: "<\\/")
    }

    /// The fingerprint in the assets' URLs of the page made last; nil before the first page.
    var fingerprint: String? { made.withLock { $0?.fingerprint } }

    /// The bundle of the current page (made again if a file changed), and its fingerprint.
    func currentBundle() -> (fingerprint: String, bundle: ClientBundle) {
        let page = current()
        return (page.fingerprint, page.bundle)
    }

    func respondImmediately(to request: Request) -> Response? {
        let page = current()
        let compressed = page.gzipped.flatMap { Gzip.isAccepted(by: request) ? $0 : nil }
        let tag = compressed == nil ? page.tag : EntityTag(page.tag.value + "-gz", weak: true)
        var headers: HTTPFields = [.eTag: tag.headerValue, .cacheControl: "no-cache", .vary: "Accept-Encoding"]
        if let header = request.headers[.ifNoneMatch], EntityTagCondition(header: header)?.matchesWeakly(tag) == true {
            return Response(status: .notModified, headers: headers)
        }
        headers[.contentType] = "text/html; charset=utf-8"
        if compressed != nil { headers[.contentEncoding] = "gzip" }
        return Response(status: .ok, headers: headers, body: .bytes(compressed ?? page.bytes))
    }

    func respond(to request: Request) async throws -> Response {
        respondImmediately(to: request) ?? Response(status: .internalServerError)
    }

    /// The page, made again when a file of the layers changed.
    private func current() -> Made {
        let tree = ClientTree(roots: roots)
        if let page = made.withLock({ $0 }), page.tree == tree { return page }
        let (html, bundle) = Self.page(from: tree, catalogue: catalogue)
        let bytes = Array(html.utf8)
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in bytes { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
        let page = Made(
            tree: tree, fingerprint: tree.fingerprint, bytes: bytes, gzipped: Gzip.compress(bytes),
            tag: EntityTag(String(hash, radix: 16), weak: true), bundle: bundle
        )
        made.withLock { $0 = page }
        version?.saw(page.fingerprint)
        return page
    }
}
