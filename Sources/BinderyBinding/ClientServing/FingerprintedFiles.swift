import BinderyHTTP

/// `GET /_v/{fingerprint}/{path…}`: the client's file at `path`, under the URL the page gives it
/// (``PageShell``). While the fingerprint is the current tree's, the answer is cached for a year
/// (`immutable`): a change of any file changes the fingerprint, hence every URL. A page made
/// before a change still loads, revalidated (`no-cache`).
struct FingerprintedFiles: HTTPResponder {
    let files: StaticFiles
    let shell: PageShell

    func respondImmediately(to request: Request) -> Response? {
        // A bundle is answered off the network thread: it looks at every file of the layers first.
        guard let (path, current) = locate(request), path.first != "_bundle" else { return nil }
        return files.respondImmediately(to: request, path: path, immutable: current)
    }

    func respond(to request: Request) async throws -> Response {
        guard let (path, current) = locate(request) else {
            throw Problem(status: .notFound, detail: "No file at \(request.path).")
        }
        return bundled(path, for: request) ?? files.respond(to: request, path: path, immutable: current)
    }

    /// `_bundle/modules.json` and `_bundle/styles.css` (``ClientBundle``) of the current page.
    private func bundled(_ path: [String], for request: Request) -> Response? {
        guard path.count == 2, path[0] == "_bundle" else { return nil }
        let (fingerprint, bundle) = shell.currentBundle()
        let current = request.rawPath.hasPrefix("/_v/\(fingerprint)/")
        switch path[1] {
        case "modules.json":
            return StaticFiles.response(
                request, file: bundle.modules, contentType: "application/json", tag: fingerprint + "-modules", immutable: current
            )
        case "styles.css":
            return StaticFiles.response(
                request, file: bundle.styles, contentType: "text/css; charset=utf-8", tag: fingerprint + "-styles", immutable: current
            )
        default:
            return nil
        }
    }

    /// The file's segments after `/_v/{fingerprint}/`, and whether the fingerprint is current.
    private func locate(_ request: Request) -> ([String], Bool)? {
        guard let segments = PercentDecoding.segments(ofRawPath: request.rawPath), segments.count >= 3 else { return nil }
        return (Array(segments.dropFirst(2)), segments[1] == shell.fingerprint)
    }
}
