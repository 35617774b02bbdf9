import BinderyHTTP
import BinderyRuntime
import Foundation

/// The client's JavaScript modules and style sheets as two fingerprinted files, so a first visit
/// loads in one round trip after the page instead of one per module (a browser opens at most six
/// HTTP/1.1 connections to a host, and the modules import each other four levels deep).
///
/// - `modules.json`: every `.js` file of the layers under a bare name (`{"bindery/js/app.js":
///   "source…"}`), each module's imports of other files of the layers (`./binder.js`,
///   `/js/api.js`) rewritten to those names and a `//# sourceURL` added so developer tools name
///   it. The page's loader makes a blob URL of each and an import map from the names (and the
///   paths, for anyone else's `import('/js/trace.js')`) to those URLs. (Bare names because a blob URL is no base for a path: `/js/api.js` inside a blob module
///   cannot be resolved, `bindery/js/api.js` is looked up in the import map.) The screens' list in
///   the page names them the same way, so a screen's `import()` gets the same module.
/// - `styles.css`: the page's style sheets and every screen's, in the page's order.
///
/// A bundler would do this at build time; the client has no build step (its files are served as
/// written, and a developer's edit shows on reload), so the server makes the two files from the
/// tree the page is made from, once per change.
struct ClientBundle: Sendable {
    /// `modules.json` and its gzip.
    let modules: CachedFile
    /// `styles.css` and its gzip.
    let styles: CachedFile

    /// The bundle of `tree`, its style sheets in the order `styleSheets` names them.
    init(tree: ClientTree, styleSheets: [String]) {
        var modules: [String: JSONValue] = [:]
        for name in tree.files.keys where name.hasSuffix(".js") {
            guard let source = tree.text(of: name) else { continue }
            modules[Self.specifier(of: name)] = .string(Self.bundled(source, in: name) + "\n//# sourceURL=/\(name)\n")
        }
        // `</script` cannot occur in JSON text as encoded here, but the file is only ever fetched.
        self.modules = CachedFile(bytes: JSONWriter.bytes(of: .object(modules)), compressible: true)
        let css = styleSheets.compactMap { name in tree.text(of: name).map { "/* \(name) */\n\($0)" } }.joined(separator: "\n")
        styles = CachedFile(bytes: Array(css.utf8), compressible: true)
    }

    /// The bare name a module of the layers is imported by: `bindery/js/app.js`.
    static func specifier(of name: String) -> String {
        "bindery/" + name
    }

    /// `source` with the specifier of every static import, re-export and literal `import()` that
    /// names a file by path (`./binder.js`, `/js/api.js`) replaced by its bare name
    /// (`bindery/js/binder.js`), as seen from module `name`.
    static func bundled(_ source: String, in name: String) -> String {
        let pattern = #"((?:^|\n)\s*(?:import|export)\s+(?:[^'";]*?\s+from\s+)?|\bimport\s*\(\s*)(['"])((?:\.{1,2})?/[^'"]+)\2"#
        guard let expression = try? NSRegularExpression(pattern: pattern) else { return source }
        let text = source as NSString
        var result = ""
        var last = 0
        for match in expression.matches(in: source, range: NSRange(location: 0, length: text.length)) {
            let path = text.substring(with: match.range(at: 3))
            guard let resolved = ClientTree.resolve(path, from: name) else { continue }
            let quote = text.substring(with: match.range(at: 2))
            result += text.substring(with: NSRange(location: last, length: match.range.location - last))
            result += text.substring(with: match.range(at: 1)) + quote + specifier(of: resolved) + quote
            last = match.range.location + match.range.length
        }
        return result + text.substring(from: last)
    }
}
