import BinderyHTTP
import BinderyRuntime
import BinderyStore
import Foundation

/// `GET /api/views/{path}/versions`: the versions of a view model the store's log still keeps
/// (at most the log's bound: 64 versions, 15 minutes by default), oldest first, each with its
/// full snapshot and when it was committed; the current version is always the last. The
/// inspector's timeline reads it, so it reaches back before the page was opened. The values of
/// sensitive inputs show masked (``SensitiveRedaction``), as the log keeps them.
extension ViewRoutes {
    func versions(of path: String, in session: Session) async throws -> Response {
        let current = try await session.graph.snapshot(path)
        let logged = (try? await sessions.store.store.loggedVersions(of: ViewModelKey(session: session.tokenHash, path: path))) ?? []
        let sensitive = schemas.schema(at: path)?.inputs.filter(\.isSensitive).map(\.name) ?? []
        var entries = logged.filter { $0.version < current.version }.map {
            ($0.version, Optional($0.loggedAt), SensitiveRedaction.masked([UInt8]($0.snapshot), inputs: sensitive))
        }
        entries.append(
            (
                current.version, logged.last { $0.version == current.version }?.loggedAt,
                SensitiveRedaction.masked(current.bytes, inputs: sensitive)
            ))
        // The snapshots are spliced in as stored: they are JSON objects already.
        var body = Array(#"{"path":"#.utf8) + JSONWriter.bytes(of: .string(path))
        body += Array(#","version":\#(current.version),"versions":["#.utf8)
        // `at` in whole seconds, UTC (`2026-12-02T06:25:14Z`): the form every generated client's
        // default date decoding reads; versions order what happened within a second.
        for (index, (version, at, snapshot)) in entries.enumerated() {
            if index > 0 { body.append(UInt8(ascii: ",")) }
            body += Array(#"{"version":\#(version),"at":"#.utf8)
            body += at.map { JSONWriter.bytes(of: .string($0.formatted(.iso8601))) } ?? Array("null".utf8)
            body += Array(#","snapshot":"#.utf8) + snapshot + [UInt8(ascii: "}")]
        }
        body += Array("]}".utf8)
        return Response.json(body, headers: [.cacheControl: "no-store"])
    }
}
