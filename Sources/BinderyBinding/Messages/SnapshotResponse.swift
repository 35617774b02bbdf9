import BinderyHTTP
import BinderyRuntime
import Foundation
import HTTPTypes

/// Builds responses from encoded snapshots without re-encoding them.
enum SnapshotResponse {
    /// The snapshot with its `ETag`; 304 when the client's `If-None-Match` already names it.
    static func make(_ snapshot: EncodedSnapshot, for request: Request, status: HTTPResponse.Status = .ok) -> Response {
        let isRead = request.method == .get || request.method == .head
        if status == .ok, isRead, let header = request.headers.value(.ifNoneMatch),
            EntityTagCondition(header: header)?.matchesWeakly(EntityTag(version: snapshot.version)) == true
        {
            return Response(status: .notModified, headers: [.eTag: snapshot.etag, .cacheControl: "no-cache, private"])
        }
        // The fields in one go (the same order as before): no search for Content-Type, no growth.
        var headers = HTTPFields()
        headers.reserveCapacity(3)
        headers.append(HTTPField(name: .eTag, value: snapshot.etag))
        headers.append(Self.noCache)
        headers.append(Self.json)
        return Response(status: status, headers: headers, body: .bytes(snapshot.bytes))
    }

    private static let noCache = HTTPField(name: .cacheControl, value: "no-cache, private")
    private static let json = HTTPField(name: .contentType, value: "application/json")

    /// 304 with the current version's `ETag`: nothing newer came (a long-poll that timed out).
    static func make(_ snapshot: EncodedSnapshot, for request: Request, notModified: Bool) -> Response {
        guard notModified else { return make(snapshot, for: request) }
        return Response(status: .notModified, headers: [.eTag: snapshot.etag, .cacheControl: "no-cache, private"])
    }

    /// The snapshot with a command's result spliced in as top-level members: `navigate` (where
    /// the client goes next) and `token` (the session's new token, after a sign-in command).
    static func make(_ snapshot: EncodedSnapshot, navigate: String?, token: String? = nil, for request: Request) -> Response {
        let members = [("navigate", navigate), ("token", token)].compactMap { name, value in value.map { (name, $0) } }
        guard !members.isEmpty, snapshot.bytes.last == UInt8(ascii: "}") else { return make(snapshot, for: request) }
        var bytes = snapshot.bytes.dropLast()
        for (name, value) in members {
            bytes.append(contentsOf: Array(",\"\(name)\":".utf8))
            bytes.append(contentsOf: JSONWriter.bytes(of: .string(value)))
        }
        bytes.append(UInt8(ascii: "}"))
        // An answer that carries a token is for its client only: no cache keeps it.
        return Response(
            status: .ok,
            headers: [
                .eTag: snapshot.etag, .cacheControl: token == nil ? "no-cache, private" : "no-store",
                .contentType: "application/json",
            ],
            body: .bytes(Array(bytes))
        )
    }
}

extension EncodedSnapshot {
    /// The snapshot's `ETag` header value: the version as a strong tag, `"7"`.
    var etag: String { EntityTag(version: version).headerValue }
}
