import Foundation
import HTTPTypes

/// Serves the files under one or more root folders for GET and HEAD: `/` is `index.html`, the
/// content type follows the extension, and a weak ETag allows `If-None-Match` revalidation (304).
/// With several roots, layered, a path is served from the first root that has it (an app's own
/// files over the thin client's).
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
        switch locate(request) {
        case .problem(let problem):
            return problem.response
        case .file(let path, let info):
            guard let bytes = cache.bytes(for: path, matching: info) else { return nil }
            return response(request, bytes: bytes, path: path, info: info)
        }
    }

    /// Reads the file (and caches it).
    package func respond(to request: Request) async throws -> Response {
        switch locate(request) {
        case .problem(let problem):
            return problem.response
        case .file(let path, let info):
            if let bytes = cache.bytes(for: path, matching: info) {
                return response(request, bytes: bytes, path: path, info: info)
            }
            guard let data = FileManager.default.contents(atPath: path) else {
                return Self.notFound(request).response
            }
            let bytes = [UInt8](data)
            cache.store(bytes, for: path, info: info)
            return response(request, bytes: bytes, path: path, info: info)
        }
    }

    private enum Location {
        case file(String, FileInfo)
        case problem(Problem)
    }

    private func locate(_ request: Request) -> Location {
        guard var segments = PercentDecoding.segments(ofRawPath: request.rawPath) else {
            return .problem(Problem(status: .badRequest, detail: "The request path is not valid."))
        }
        // Bytes, not Characters: "/" followed by a combining mark (`%2F%CC%81`) is one Character.
        for segment in segments where segment == "." || segment == ".."
            || segment.utf8.contains(where: { $0 == UInt8(ascii: "/") || $0 == UInt8(ascii: "\\") || $0 == 0 }) {
            return .problem(Self.notFound(request))
        }
        segments.removeAll { $0.isEmpty }
        if segments.isEmpty || request.rawPath.hasSuffix("/") {
            segments.append("index.html")
        }
        let relative = segments.joined(separator: "/")
        guard let (real, info) = roots.lazy.compactMap({ root -> (String, FileInfo)? in
            guard let real = Self.realPath(root + "/" + relative), real.hasPrefix(root + "/"),
                let info = FileInfo(path: real) else { return nil }
            return (real, info)
        }).first else {
            return .problem(Self.notFound(request))
        }
        // Only an existing file makes another method a 405; a missing one is a 404 for every method.
        guard request.method == .get || request.method == .head else {
            return .problem(Problem(
                status: .methodNotAllowed, detail: "Static files are read-only.", headers: [.allow: "GET, HEAD"]
            ))
        }
        return .file(real, info)
    }

    private func response(_ request: Request, bytes: [UInt8], path: String, info: FileInfo) -> Response {
        let etag = EntityTag("\(info.size)-\(info.modified)", weak: true)
        var headers: HTTPFields = [.eTag: etag.headerValue, .cacheControl: "no-cache"]
        if let header = request.headers[.ifNoneMatch], EntityTagCondition(header: header)?.matchesWeakly(etag) == true {
            return Response(status: .notModified, headers: headers)
        }
        headers[.contentType] = Self.contentType(forPath: path)
        return Response(status: .ok, headers: headers, body: .bytes(bytes))
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
