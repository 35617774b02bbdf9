import BinderyHTTP
import Foundation
import Testing

@testable import BinderyBinding

/// The page and its two bundles: every module under a bare name with its path imports rewritten,
/// the style sheets in the page's order, fingerprinted URLs that change with any file.
@Suite("Page shell and client bundle")
struct PageShellTests {
    /// A client layer under a temporary folder, removed at the end.
    private func withClient(_ body: (String) throws -> Void) throws {
        let root = NSTemporaryDirectory() + "bindery-shell-" + UUID().uuidString
        let files: [String: String] = [
            "index.html": """
            <!doctype html><html><head><title>T</title>
            <link rel="icon" href="/favicon.svg">
            <link rel="stylesheet" href="/css/app.css">
            <!-- bindery:styles -->
            <script type="module" src="/js/app.js"></script>
            </head><body><a href="/">home</a><!-- bindery:screens --></body></html>
            """,
            "favicon.svg": "<svg/>",
            "css/app.css": "body { margin: 0 }",
            "js/app.js": "import { api } from './api.js';\nimport '../js/util/log.js';\nexport const x = () => import('./late.js');\n",
            "js/api.js": "export { log } from '/js/util/log.js';\nexport const api = 1;\n",
            "js/util/log.js": "export const log = 'a from b';\n",
            "js/late.js": "export const late = true;\n",
            "screens/form.html": "<template id=\"form\">F</template>",
            "screens/lab.html": "<template id=\"tpl-lab\" data-page=\"/lab\" data-title=\"Lab\">L</template>",
            "screens/form.js": "import { api } from '/js/api.js';\nexport function mount() {}\n",
            "screens/form.css": ".form { color: red }",
        ]
        for (name, text) in files {
            let path = root + "/" + name
            try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        }
        defer { try? FileManager.default.removeItem(atPath: root) }
        try body(root)
    }

    @Test func modulesAreImportedByBareNamesAndFollowedToTheEnd() throws {
        try withClient { root in
            let tree = ClientTree(roots: [root])
            #expect(tree.moduleGraph(from: ["js/app.js"]) == ["js/app.js", "js/api.js", "js/util/log.js"])
            #expect(tree.declaredPages == ["/lab"])
            let bundle = ClientBundle(tree: tree, styleSheets: ["css/app.css", "screens/form.css"])
            let modules = try #require(try JSONSerialization.jsonObject(with: Data(bundle.modules.bytes)) as? [String: String])
            #expect(
                Set(modules.keys) == [
                    "bindery/js/app.js", "bindery/js/api.js", "bindery/js/util/log.js", "bindery/js/late.js", "bindery/screens/form.js",
                ])
            #expect(
                modules["bindery/js/app.js"] == """
                    import { api } from 'bindery/js/api.js';
                    import 'bindery/js/util/log.js';
                    export const x = () => import('bindery/js/late.js');

                    //# sourceURL=/js/app.js

                    """)
            #expect(modules["bindery/js/api.js"]?.hasPrefix("export { log } from 'bindery/js/util/log.js';\n") == true)
            // A string that only looks like an import is left alone.
            #expect(modules["bindery/js/util/log.js"]?.hasPrefix("export const log = 'a from b';") == true)
            #expect(
                String(decoding: bundle.styles.bytes, as: UTF8.self)
                    == "/* css/app.css */\nbody { margin: 0 }\n/* screens/form.css */\n.form { color: red }")
            #expect(bundle.modules.gzipped != nil || bundle.modules.bytes.count < 300)
        }
    }

    @Test func thePageLoadsEverythingFromFingerprintedURLs() throws {
        try withClient { root in
            let shell = PageShell(roots: [root], catalogue: Array(#"{"views":[{"title":"</script>"}]}"#.utf8))
            let tree = ClientTree(roots: [root])
            let (html, _) = PageShell.page(from: tree, catalogue: "{}")
            let prefix = "/_v/\(tree.fingerprint)/"
            #expect(html.contains(#"<link rel="stylesheet" href="\#(prefix)_bundle/styles.css">"#))
            #expect(html.contains(#"<link rel="icon" href="\#(prefix)favicon.svg">"#))
            #expect(!html.contains(#"href="/css/app.css""#) && !html.contains(#"src="/js/app.js""#))
            #expect(html.contains(#"entries = ["bindery/js/app.js"]"#))
            #expect(html.contains(#"{"form":"bindery/screens/form.js"}"#))
            #expect(html.contains(#"<template id="form">F</template>"#))
            #expect(html.contains(#"<a href="/">home</a>"#), "page links are not assets")
            // The loader comes before the style sheet, which would hold a classic script back.
            let loader = try #require(html.range(of: "_bundle/modules.json"))
            let styles = try #require(html.range(of: "_bundle/styles.css"))
            #expect(loader.lowerBound < styles.lowerBound)
            // The catalogue in the page cannot end its script element.
            let answer = try #require(shell.respondImmediately(to: Request(method: .get, path: "/")))
            guard case .bytes(let bytes) = answer.body else { Issue.record("no body"); return }
            let page = String(decoding: bytes, as: UTF8.self)
            #expect(page.contains(#"<script type="application/json" id="bindery-catalogue">{"views":[{"title":"<\/script>"}]}</script>"#))

            // Any change of any file is a new fingerprint.
            try Data("body { margin: 1px }".utf8).write(to: URL(fileURLWithPath: root + "/css/app.css"))
            #expect(ClientTree(roots: [root]).fingerprint != tree.fingerprint)
        }
    }
}
