import BinderyHTTP
import HTTPTypes

/// What a browser gets at an address that is neither a file nor a page: a page, not a problem
/// document. `/form/` redirects to `/form`; any other unknown address a browser navigates to
/// (it accepts HTML) gets the thin client's shell with status 404, which shows its "not found"
/// screen with the navigation. Clients that ask for JSON still get the 404 problem.
struct PageFallback: HTTPResponder {
    let files: StaticFiles
    /// The page shell (`index.html`).
    let shell: PageShell
    /// The screens' names: the first segment of every page address.
    let screens: Set<String>

    func respondImmediately(to request: Request) -> Response? {
        guard let response = files.respondImmediately(to: request) else { return nil }
        guard response.status == .notFound else { return response }
        if let redirect = redirect(for: request) { return redirect }
        guard Self.acceptsHTML(request) else { return response }
        // The shell not read yet: the async path reads it.
        guard var page = shell.respondImmediately(to: request) else { return nil }
        page.status = .notFound
        return page
    }

    func respond(to request: Request) async throws -> Response {
        let response = try await files.respond(to: request)
        guard response.status == .notFound else { return response }
        if let redirect = redirect(for: request) { return redirect }
        guard Self.acceptsHTML(request) else { return response }
        var page = try await shell.respond(to: request)
        page.status = .notFound
        return page
    }

    /// `/form/` and `/list/items/x/`: the same page without the trailing slash (308 keeps the
    /// method).
    private func redirect(for request: Request) -> Response? {
        guard request.path.count > 1, request.path.hasSuffix("/") else { return nil }
        var trimmed = request.path
        while trimmed.count > 1, trimmed.hasSuffix("/") { trimmed.removeLast() }
        let first = trimmed.split(separator: "/").first.map(String.init) ?? ""
        guard screens.contains(first), !trimmed.contains("//") else { return nil }
        return Response(status: .permanentRedirect, headers: [.location: trimmed], body: .bytes([]))
    }

    /// Whether the client takes HTML (a browser navigating), from `Accept`.
    static func acceptsHTML(_ request: Request) -> Bool {
        request.headers[.accept]?.lowercased().contains("text/html") ?? false
    }
}
