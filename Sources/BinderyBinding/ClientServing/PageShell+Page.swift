import BinderyRuntime
import Foundation

/// How the page is made from the client's files: the screens put in, the style sheets as one
/// fingerprinted file, the modules loaded by a small inline loader from one fingerprinted file
/// (``ClientBundle``), every other asset URL fingerprinted.
extension PageShell {
    /// The page for `tree`, and the bundle it loads.
    static func page(from tree: ClientTree, catalogue: String) -> (html: String, bundle: ClientBundle) {
        let prefix = "/_v/\(tree.fingerprint)/"
        let screens = tree.files.keys.filter { $0.hasPrefix("screens/") && $0.split(separator: "/").count == 2 }.sorted()
        let templates = screens.filter { $0.hasSuffix(".html") }.compactMap(tree.text(of:)).joined(separator: "\n")
        let list = JSONValue.object(
            Dictionary(
                uniqueKeysWithValues: screens.filter { $0.hasSuffix(".js") }.map { name in
                    (String(name.dropFirst("screens/".count).dropLast(".js".count)), JSONValue.string(ClientBundle.specifier(of: name)))
                }))
        var index = tree.text(of: "index.html") ?? "<!doctype html><title>Bindery</title>"
        // The page's own style sheets and module entries leave the page: the bundle has them.
        let (withoutSheets, sheets) = removing(#"<link\b[^>]*\brel="stylesheet"[^>]*\bhref="/([^"]+)"[^>]*>\s*"#, from: index, tree: tree)
        let (withoutEntries, entries) = removing(
            #"<script\b[^>]*\btype="module"[^>]*\bsrc="/([^"]+)"[^>]*>\s*</script>\s*"#, from: withoutSheets, tree: tree)
        index = fingerprinted(withoutEntries, tree: tree, prefix: prefix)
        let bundle = ClientBundle(tree: tree, styleSheets: sheets + screens.filter { $0.hasSuffix(".css") })
        // The client this page runs (js/deploy.js compares it with the API's `Bindery-Client`),
        // then the loader: a classic script waits for the style sheets before it, and the modules
        // need not.
        let head =
            #"<meta name="bindery-client" content="\#(tree.fingerprint)">\#n  "#
            + loader(prefix: prefix, entries: entries.map(ClientBundle.specifier(of:)))
            + #"\#n  <link rel="stylesheet" href="\#(prefix)_bundle/styles.css">\#n  "#
        if let first = index.range(of: #"<(link|script|!-- bindery:styles)\b"#, options: .regularExpression) {
            index.insert(contentsOf: head, at: first.lowerBound)
        }
        let listJSON = String(decoding: JSONWriter.bytes(of: list), as: UTF8.self)
        let html =
            index
            .replacingOccurrences(of: "<!-- bindery:styles -->", with: "")
            .replacingOccurrences(
                of: "<!-- bindery:screens -->",
                with: templates + "\n  <script type=\"application/json\" id=\"bindery-screen-modules\">\(listJSON)</script>"
                    + "\n  <script type=\"application/json\" id=\"bindery-catalogue\">\(catalogue)</script>"
            )
        return (html, bundle)
    }

    /// The inline script that loads `modules.json`, makes a blob URL of each module and an import
    /// map from their names and paths (a developer's `import('/js/trace.js')` in the console gets
    /// the page's module, not a second one), then imports `entries`; without the bundle, an import map sends the
    /// names and paths to the fingerprinted files one by one. Meanwhile it asks for the session
    /// (`PUT /api/session`, `window.binderyEarly.session`), which the client takes instead of
    /// asking again (or asks itself when that got no answer): the session's round trip overlaps the
    /// modules'.
    private static func loader(prefix: String, entries: [String]) -> String {
        let entryList = String(decoding: JSONWriter.bytes(of: .array(entries.map(JSONValue.string))), as: UTF8.self)
        return """
            <script>
              // Bindery's module loader (PageShell): every module in one request (ClientBundle).
              (() => {
                const prefix = '\(prefix)', entries = \(entryList);
                window.binderyEarly = {
                  session: fetch('/api/session', {
                    method: 'PUT', credentials: 'same-origin', headers: { Accept: 'application/json, application/problem+json' },
                  }).catch(() => null), // null: no answer, the client asks again
                };
                const start = (imports) => {
                  const map = document.createElement('script');
                  map.type = 'importmap';
                  map.textContent = JSON.stringify({ imports });
                  document.head.append(map);
                  for (const entry of entries) import(entry);
                };
                fetch(prefix + '_bundle/modules.json')
                  .then((answer) => (answer.ok ? answer.json() : Promise.reject(new Error(String(answer.status)))))
                  .then((modules) => {
                    const imports = {};
                    for (const [name, source] of Object.entries(modules)) {
                      // By its bare name (the modules' imports) and by its path (anyone else's).
                      const url = URL.createObjectURL(new Blob([source], { type: 'text/javascript' }));
                      imports[name] = url;
                      imports[name.slice('bindery'.length)] = url;
                    }
                    start(imports);
                  }, () => start({ 'bindery/': prefix, '/': prefix, '/_v/': '/_v/' }));
              })();
            </script>
            """
    }

    /// `html` without the tags `pattern` matches whose first capture names a file of the tree,
    /// and those names in order.
    private static func removing(_ pattern: String, from html: String, tree: ClientTree) -> (String, [String]) {
        guard let expression = try? NSRegularExpression(pattern: pattern) else { return (html, []) }
        let text = html as NSString
        var result = ""
        var names: [String] = []
        var last = 0
        for match in expression.matches(in: html, range: NSRange(location: 0, length: text.length)) {
            let name = text.substring(with: match.range(at: 1))
            guard tree.files[name] != nil else { continue }
            names.append(name)
            result += text.substring(with: NSRange(location: last, length: match.range.location - last))
            last = match.range.location + match.range.length
        }
        return (result + text.substring(from: last), names)
    }

    /// `html` with the `href` of every `<link>` and the `src` of every `<script>` that names a
    /// file of the tree by its absolute path moved under `prefix`.
    private static func fingerprinted(_ html: String, tree: ClientTree, prefix: String) -> String {
        guard let expression = try? NSRegularExpression(pattern: #"(<(?:link|script)\b[^>]*?\s(?:href|src)=")/([^"/][^"]*)""#) else {
            return html
        }
        let text = html as NSString
        var result = ""
        var last = 0
        for match in expression.matches(in: html, range: NSRange(location: 0, length: text.length)) {
            let name = text.substring(with: match.range(at: 2))
            guard tree.files[name] != nil else { continue }
            result += text.substring(with: NSRange(location: last, length: match.range.location - last))
            result += text.substring(with: match.range(at: 1)) + prefix + name + "\""
            last = match.range.location + match.range.length
        }
        return result + text.substring(from: last)
    }
}
