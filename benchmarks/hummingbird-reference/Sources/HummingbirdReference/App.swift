import Foundation
import Hummingbird

/// The routes: `POST /api/sessions`, `GET` and `PATCH /api/views/form` with a bearer token.
func buildRouter(sessions: Sessions) -> Router<BasicRequestContext> {
    let router = Router()
    router.post("/api/sessions") { _, _ -> Response in
        json(#"{"token":"\#(sessions.create())"}"#.utf8, status: .created)
    }
    router.get("/api/views/form") { request, _ -> Response in
        guard let form = token(request).flatMap(sessions.form) else { return Response(status: .unauthorized) }
        return try snapshot(form)
    }
    router.patch("/api/views/form") { request, context -> Response in
        guard let token = token(request) else { return Response(status: .unauthorized) }
        let body = try await request.body.collect(upTo: context.maxUploadSize)
        let patch: FormPatch
        do {
            patch = try body.withUnsafeReadableBytes { try JSONDecoder().decode(FormPatch.self, from: Data($0)) }
        } catch {
            return Response(status: .unprocessableContent)
        }
        // Bindery's declared limits of the two inputs.
        guard (patch.phone?.count ?? 0) <= 64, (patch.password?.count ?? 0) <= 256 else {
            return Response(status: .unprocessableContent)
        }
        guard let form = sessions.apply(patch, to: token) else { return Response(status: .unauthorized) }
        return try snapshot(form)
    }
    return router
}

/// The form's snapshot, encoded for this request, with its version as the ETag.
private func snapshot(_ form: Form) throws -> Response {
    let encoder = JSONEncoder()
    encoder.outputFormatting = .sortedKeys
    var response = json(try encoder.encode(form.snapshot), status: .ok)
    response.headers[.eTag] = "\"\(form.version)\""
    response.headers[.cacheControl] = "no-cache, private"
    return response
}

private func json(_ bytes: some Sequence<UInt8>, status: HTTPResponse.Status) -> Response {
    let buffer = ByteBuffer(bytes: bytes)
    return Response(
        status: status,
        headers: [.contentType: "application/json", .contentLength: String(buffer.readableBytes)],
        body: .init(byteBuffer: buffer)
    )
}

private func token(_ request: Request) -> String? {
    guard let value = request.headers[.authorization], value.hasPrefix("Bearer ") else { return nil }
    return String(value.dropFirst(7))
}

/// `hummingbird-reference [--host 127.0.0.1] [--port 8080]`
@main
struct App {
    static func main() async throws {
        var host = "127.0.0.1", port = 8080
        var arguments = CommandLine.arguments.dropFirst().makeIterator()
        while let argument = arguments.next() {
            switch argument {
            case "--host": host = arguments.next() ?? host
            case "--port": port = arguments.next().flatMap(Int.init) ?? port
            default: throw ArgumentError(argument: argument)
            }
        }
        let app = Application(
            router: buildRouter(sessions: Sessions()),
            configuration: .init(address: .hostname(host, port: port), serverName: "hummingbird-reference")
        )
        try await app.runService()
    }
}

struct ArgumentError: Error, CustomStringConvertible {
    var argument: String
    var description: String { "unknown argument \(argument) (usage: hummingbird-reference [--host H] [--port P])" }
}
