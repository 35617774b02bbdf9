import Foundation
import HTTPTypes

/// Serves the files under one or more root folders for GET and HEAD: `/` is `index.html`, the
/// content type follows the extension, and a weak ETag allows `If-None-Match` revalidation (304).
/// With several roots, layered, a path is served from the first root that has it (an app's own
/// files over the thin client's).
///
/// Text files (HTML, JavaScript, CSS, SVG, JSON) are compressed with gzip once, when read, and
/// served compressed to clients that accept it (`Vary: Accept-Encoding`). A file is revalidated on
/// each use (`no-cache`) unless it is served under a fingerprinted URL
/// (``respond(to:path:immutable:)``), which is cached for a year (`immutable`).
///
/// A request never reaches outside its root: `.` and `..` segments (also percent-encoded) are
/// refused, and the resolved real path (symlinks followed) must lie under the root's real path.
/// Files are cached in memory (up to 64 MiB in total) and served on the fast path once cached.
package struct StaticFiles: HTTPResponder {
    private let roots: [String]
    private let cache = FileCache(budget: 64 << 20)

    /// Serves the files under `root`.
    package init(root: String) {
        self.init(roots: [root])
    }

    /// Serves the files under `roots`, the first that has a path winning.
    package init(roots: [String]) {
        self.roots = roots.map { StaticFiles.realPath($0) ?? $0 }
    }

    /// The real paths of the roots, first first.
    package var rootPaths: [String] { roots }

    /// Answers from the in-memory cache, or with a problem, without leaving the network thread.
    package func respondImmediately(to request: Request) -> Response? {
        guard let segments = PercentDecoding.segments(ofRawPath: request.rawPath) else { return Self.invalidPath.response }
        return respondImmediately(to: request, path: segments, immutable: false)
    }

    /// Reads the file (and caches it).
    package func respond(to request: Request) async throws -> Response {
        guard let segments = PercentDecoding.segments(ofRawPath: request.rawPath) else { return Self.invalidPath.response }
        return respond(to: request, path: segments, immutable: false)
    }

    /// The answer from the cache for the file at `path` (decoded segments), nil when it is not
    /// cached yet; `immutable` for a fingerprinted URL, whose content never changes.
    package func respondImmediately(to request: Request, path: [String], immutable: Bool) -> Response? {
        switch locate(path, for: request) {
        case .problem(let problem):
            return problem.response
        case .file(let path, let info):
            guard let file = cache.file(for: path, matching: info) else { return nil }
            return response(request, file: file, path: path, info: info, immutable: immutable)
        }
    }

    /// The answer for the file at `path` (decoded segments), read and cached if need be;
    /// `immutable` for a fingerprinted URL, whose content never changes.
    package func respond(to request: Request, path: [String], immutable: Bool) -> Response {
        switch locate(path, for: request) {
        case .problem(let problem):
            return problem.response
        case .file(let path, let info):
            if let file = cache.file(for: path, matching: info) {
                return response(request, file: file, path: path, info: info, immutable: immutable)
            }
            guard let data = FileManager.default.contents(atPath: path) else {
                return Self.notFound(request).response
            }
            let file = CachedFile(bytes: [UInt8](data), compressible: Self.isCompressible(path))
            cache.store(file, for: path, info: info)
            return response(request, file: file, path: path, info: info, immutable: immutable)
        }
    }

    /// Whether the file at `path`, relative to the roots, exists in one of them.
    package func contains(_ relative: String) -> Bool {
        roots.contains { root in Self.realPath(root + "/" + relative).map { $0.hasPrefix(root + "/") } ?? false }
    }

    private enum Location {
        case file(String, FileInfo)
        case problem(Problem)
    }

    private static let invalidPath = Problem(status: .badRequest, detail: "The request path is not valid.")

    private func locate(_ decoded: [String], for request: Request) -> Location {
        var segments = decoded
        // Bytes, not Characters: "/" followed by a combining mark (`%2F%CC%81`) is one Character.
        for segment in segments
        where segment == "." || segment == ".."
            || segment.utf8.contains(where: { $0 == UInt8(ascii: "/") || $0 == UInt8(ascii: "\\") || $0 == 0 })
        {
            return .problem(Self.notFound(request))
        }
        segments.removeAll { $0.isEmpty }
        if segments.isEmpty || request.rawPath.hasSuffix("/") {
            segments.append("index.html")
        }
        let relative = segments.joined(separator: "/")
        guard
            let (real, info) = roots.lazy.compactMap({ root -> (String, FileInfo)? in
                guard let real = Self.realPath(root + "/" + relative), real.hasPrefix(root + "/"),
                    let info = FileInfo(path: real)
                else { return nil }
                return (real, info)
            }).first
        else {
            return .problem(Self.notFound(request))
        }
        // Only an existing file makes another method a 405; a missing one is a 404 for every method.
        guard request.method == .get || request.method == .head else {
            return .problem(
                Problem(
                    status: .methodNotAllowed, detail: "Static files are read-only.", headers: [.allow: "GET, HEAD"]
                ))
        }
        return .file(real, info)
    }

    private func response(_ request: Request, file: CachedFile, path: String, info: FileInfo, immutable: Bool) -> Response {
        Self.response(
            request, file: file, contentType: Self.contentType(forPath: path), tag: "\(info.size)-\(info.modified)",
            immutable: immutable
        )
    }

    /// The answer carrying `file` (gzip-compressed when it has a compressed form the client
    /// accepts), or 304 when `If-None-Match` names it; `tag` names its content, `immutable`
    /// caches it for a year.
    package static func response(
        _ request: Request, file: CachedFile, contentType: String, tag: String, immutable: Bool
    ) -> Response {
        let compressed = file.gzipped.flatMap { Gzip.isAccepted(by: request) ? $0 : nil }
        // Each encoding is its own representation, with its own tag.
        let etag = EntityTag(tag + (compressed == nil ? "" : "-gz"), weak: true)
        var headers: HTTPFields = [
            .eTag: etag.headerValue, .cacheControl: immutable ? "public, max-age=31536000, immutable" : "no-cache",
        ]
        if file.gzipped != nil { headers[.vary] = "Accept-Encoding" }
        if let header = request.headers[.ifNoneMatch], EntityTagCondition(header: header)?.matchesWeakly(etag) == true {
            return Response(status: .notModified, headers: headers)
        }
        headers[.contentType] = contentType
        if compressed != nil { headers[.contentEncoding] = "gzip" }
        return Response(status: .ok, headers: headers, body: .bytes(compressed ?? file.bytes))
    }

    /// Whether a file is text worth compressing, by its extension.
    static func isCompressible(_ path: String) -> Bool {
        let type = contentType(forPath: path)
        return type.hasPrefix("text/") || type.hasPrefix("application/json") || type.hasPrefix("image/svg+xml")
    }

    private static func notFound(_ request: Request) -> Problem {
        Problem(status: .notFound, detail: "No file at \(request.path).")
    }

    static func realPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    /// The content type for a file name's extension.
    static func contentType(forPath path: String) -> String {
        let name = path.split(separator: "/").last ?? ""
        let ext = name.contains(".") ? String(name.split(separator: ".").last ?? "").lowercased() : ""
        switch ext {
        case "html", "htm": return "text/html; charset=utf-8"
        case "js", "mjs": return "text/javascript; charset=utf-8"
        case "css": return "text/css; charset=utf-8"
        case "svg": return "image/svg+xml"
        case "png": return "image/png"
        case "jpg", "jpeg": return "image/jpeg"
        case "json": return "application/json"
        case "ico": return "image/x-icon"
        case "txt": return "text/plain; charset=utf-8"
        default: return "application/octet-stream"
        }
    }
}
