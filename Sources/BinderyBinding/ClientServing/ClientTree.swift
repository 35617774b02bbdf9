import Foundation

/// The files of the client's layers as the page is made from them: every file's name (relative
/// to its layer, the first layer winning), where it is, and a stamp (size and modification time).
/// Its fingerprint names the whole tree, so any change of any file gives every asset a new URL.
struct ClientTree: Equatable {
    /// One file of the tree.
    struct File: Equatable {
        /// `js/app.js`, `screens/form.html`.
        let name: String
        let path: String
        let stamp: String
    }

    /// The files by name.
    let files: [String: File]

    /// Walks `roots` (the first winning a name), skipping hidden files and folders.
    init(roots: [String]) {
        var found: [String: File] = [:]
        for root in roots.reversed() {
            guard
                let walker = FileManager.default.enumerator(
                    at: URL(fileURLWithPath: root), includingPropertiesForKeys: [.isRegularFileKey, .fileSizeKey, .contentModificationDateKey],
                    options: [.skipsHiddenFiles]
                )
            else { continue }
            for case let url as URL in walker {
                guard let values = try? url.resourceValues(forKeys: [.isRegularFileKey, .fileSizeKey, .contentModificationDateKey]),
                    values.isRegularFile == true
                else { continue }
                let path = url.path
                guard path.hasPrefix(root + "/") else { continue }
                let name = String(path.dropFirst(root.count + 1))
                let modified = values.contentModificationDate?.timeIntervalSince1970 ?? 0
                found[name] = File(name: name, path: path, stamp: "\(path) \(values.fileSize ?? 0) \(modified)")
            }
        }
        files = found
    }

    /// 16 hex digits naming this state of the tree (FNV-1a over the names and stamps).
    var fingerprint: String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for name in files.keys.sorted() {
            for byte in (files[name]?.stamp ?? "").utf8 { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
            hash = (hash ^ 0x0a) &* 0x100_0000_01b3
        }
        let hex = String(hash, radix: 16)
        return String(repeating: "0", count: 16 - hex.count) + hex
    }

    /// The contents of the file `name`, as text; nil when it is not in the tree.
    func text(of name: String) -> String? {
        files[name].flatMap { FileManager.default.contents(atPath: $0.path) }.map { String(decoding: $0, as: UTF8.self) }
    }

    /// The pages of the app without a view model: `data-page="/lab"` on a template of a screen's
    /// HTML (the client routes them; the server answers them with the page, 200).
    var declaredPages: [String] {
        guard let expression = try? NSRegularExpression(pattern: #"<template\b[^>]*\bdata-page="(/[A-Za-z0-9_\-/]+)""#) else { return [] }
        var pages: Set<String> = []
        for name in files.keys where name.hasPrefix("screens/") && name.hasSuffix(".html") {
            guard let text = self.text(of: name) else { continue }
            let string = text as NSString
            for match in expression.matches(in: text, range: NSRange(location: 0, length: string.length)) {
                pages.insert(string.substring(with: match.range(at: 1)))
            }
        }
        return pages.sorted()
    }

    /// The modules `entries` import statically, directly or not, entries included, by name
    /// (`js/app.js`), in a stable order: what the page preloads so that no import waits for
    /// another (`<link rel="modulepreload">`). Dynamic `import()` is not followed.
    func moduleGraph(from entries: [String]) -> [String] {
        var seen: Set<String> = []
        var order: [String] = []
        var pending = entries
        while let name = pending.first {
            pending.removeFirst()
            guard !seen.contains(name), let source = text(of: name) else { continue }
            seen.insert(name)
            order.append(name)
            pending += Self.imports(in: source).compactMap { Self.resolve($0, from: name) }.filter { files[$0] != nil }
        }
        return order
    }

    /// The specifiers of a module's static `import … from '…'`, `import '…'` and `export … from '…'`.
    static func imports(in source: String) -> [String] {
        let pattern = #"(?m)^\s*(?:import|export)\s+(?:[^'";]*?\s+from\s+)?['"]([^'"]+)['"]"#
        guard let expression = try? NSRegularExpression(pattern: pattern) else { return [] }
        let text = source as NSString
        return expression.matches(in: source, range: NSRange(location: 0, length: text.length)).map {
            text.substring(with: $0.range(at: 1))
        }
    }

    /// The tree name a specifier in module `from` points to: `/js/api.js` → `js/api.js`,
    /// `./binder.js` in `js/app.js` → `js/binder.js`; nil for a bare name or a full URL.
    static func resolve(_ specifier: String, from module: String) -> String? {
        var parts: [Substring]
        if specifier.hasPrefix("/") {
            parts = []
        } else if specifier.hasPrefix("./") || specifier.hasPrefix("../") {
            parts = module.split(separator: "/").dropLast()
        } else {
            return nil
        }
        for part in specifier.split(separator: "/") {
            switch part {
            case ".": continue
            case "..": if parts.popLast() == nil { return nil }
            default: parts.append(part)
            }
        }
        return parts.joined(separator: "/")
    }
}
