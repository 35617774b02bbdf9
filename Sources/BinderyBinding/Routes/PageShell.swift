import BinderyHTTP
import BinderyRuntime
import Foundation
import HTTPTypes
import Synchronization

/// Serves the thin client's page for `/` and every page URL (`/form`, `/gallery/photos/3`), so
/// every screen has a shareable URL the client routes itself.
///
/// The page is the client's `index.html` with every screen's files of any layer put in (the
/// app's layer wins a name): the templates of `screens/<name>.html` where the page says
/// `<!-- bindery:screens -->`, a link to each `screens/<name>.css` where it says
/// `<!-- bindery:styles -->`, and the list of `screens/<name>.js` modules the client imports. A new
/// screen is thus files of its own, never an edit of `index.html`. The page is made again when
/// one of those files changes (a developer's edit shows on reload).
final class PageShell: HTTPResponder, Sendable {
    /// The made page, and the files it was made from (name, size, modification time).
    private struct Made {
        let sources: [String]
        let bytes: [UInt8]
        let tag: EntityTag
    }

    private let roots: [String]
    private let made = Mutex<Made?>(nil)

    /// The shell over `roots`, the first winning a name.
    init(roots: [String]) {
        self.roots = roots
    }

    func respondImmediately(to request: Request) -> Response? {
        let page = current()
        if let header = request.headers[.ifNoneMatch], EntityTagCondition(header: header)?.matchesWeakly(page.tag) == true {
            return Response(status: .notModified, headers: [.eTag: page.tag.headerValue, .cacheControl: "no-cache"])
        }
        return Response(
            status: .ok,
            headers: [.contentType: "text/html; charset=utf-8", .eTag: page.tag.headerValue, .cacheControl: "no-cache"],
            body: .bytes(page.bytes)
        )
    }

    func respond(to request: Request) async throws -> Response {
        respondImmediately(to: request) ?? Response(status: .internalServerError)
    }

    /// The page, made again when its files changed.
    private func current() -> Made {
        let files = Self.files(in: roots)
        let sources = files.map(\.stamp)
        if let page = made.withLock({ $0 }), page.sources == sources { return page }
        let page = Self.make(files, sources: sources)
        made.withLock { $0 = page }
        return page
    }

    /// One file the page is made from.
    private struct File {
        /// `index.html` or `screens/<name>.<ext>`.
        let name: String
        let path: String
        let stamp: String
    }

    /// `index.html` and the screens' files, each from the first root that has it, by name.
    private static func files(in roots: [String]) -> [File] {
        var found: [String: File] = [:]
        for root in roots.reversed() {
            var names = ["index.html"]
            let screens = (try? FileManager.default.contentsOfDirectory(atPath: root + "/screens")) ?? []
            names += screens.filter { $0.hasSuffix(".html") || $0.hasSuffix(".css") || $0.hasSuffix(".js") }
                .map { "screens/" + $0 }
            for name in names {
                let path = root + "/" + name
                guard let attributes = try? FileManager.default.attributesOfItem(atPath: path),
                    attributes[.type] as? FileAttributeType == .typeRegular
                else { continue }
                let modified = (attributes[.modificationDate] as? Date)?.timeIntervalSince1970 ?? 0
                found[name] = File(name: name, path: path, stamp: "\(path) \(attributes[.size] ?? 0) \(modified)")
            }
        }
        return found.values.sorted { $0.name < $1.name }
    }

    private static func make(_ files: [File], sources: [String]) -> Made {
        func contents(_ file: File) -> String {
            (FileManager.default.contents(atPath: file.path)).map { String(decoding: $0, as: UTF8.self) } ?? ""
        }
        let screens = files.filter { $0.name.hasPrefix("screens/") }
        let templates = screens.filter { $0.name.hasSuffix(".html") }.map(contents).joined(separator: "\n")
        let styles = screens.filter { $0.name.hasSuffix(".css") }
            .map { #"<link rel="stylesheet" href="/\#($0.name)">"# }.joined(separator: "\n  ")
        let modules = screens.filter { $0.name.hasSuffix(".js") }.map { file -> (String, String) in
            let name = String(file.name.dropFirst("screens/".count).dropLast(".js".count))
            return (name, "/" + file.name)
        }
        let list = String(decoding: JSONWriter.bytes(of: .object(Dictionary(uniqueKeysWithValues: modules.map { ($0.0, .string($0.1)) }))), as: UTF8.self)
        let index = files.first { $0.name == "index.html" }.map(contents) ?? "<!doctype html><title>Bindery</title>"
        let page = index
            .replacingOccurrences(of: "<!-- bindery:styles -->", with: styles)
            .replacingOccurrences(
                of: "<!-- bindery:screens -->",
                with: templates + "\n  <script type=\"application/json\" id=\"bindery-screen-modules\">\(list)</script>"
            )
        let bytes = Array(page.utf8)
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in bytes { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
        return Made(sources: sources, bytes: bytes, tag: EntityTag(String(hash, radix: 16), weak: true))
    }
}
