import BinderyHTTP
import BinderyTestSupport
import Foundation
import Testing

/// Static text files go out gzip-compressed to clients that take it, each encoding with its own
/// tag; fingerprinted URLs are cached for a year, others revalidated.
@Suite("Static files: compression and caching")
struct CompressedFilesTests {
    /// A folder with a 4 KB script and a tiny one, removed at the end.
    private func withSite(_ body: (String) async throws -> Void) async throws {
        let root = NSTemporaryDirectory() + "bindery-gzip-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: root) }
        try Data(Self.script.utf8).write(to: URL(fileURLWithPath: root + "/app.js"))
        try Data("x()".utf8).write(to: URL(fileURLWithPath: root + "/tiny.js"))
        try Data([0x89, 0x50, 0x4e, 0x47] + [UInt8](repeating: 7, count: 4000)).write(to: URL(fileURLWithPath: root + "/image.png"))
        try await body(root)
    }

    private static let script = (0..<100).map { "export const value\($0) = 'the same words again and again';\n" }.joined()

    @Test func textGoesOutCompressedToClientsThatTakeIt() async throws {
        try await withSite { root in
            try await withServer(StaticFiles(root: root)) { server in
                let client = try RawHTTPClient(port: server.port)
                let plain = try await client.request("GET", "/app.js")
                #expect(plain.text == Self.script)
                #expect(plain.header("Content-Encoding") == nil)
                #expect(plain.header("Vary") == "Accept-Encoding")

                let compressed = try await client.request("GET", "/app.js", headers: [("Accept-Encoding", "br, gzip;q=0.8")])
                #expect(compressed.header("Content-Encoding") == "gzip")
                #expect(compressed.body.count < plain.body.count / 4)
                #expect(try gunzip(compressed.body) == Array(Self.script.utf8))
                // Each representation has its own tag; revalidating the compressed one is a 304.
                let tag = try #require(compressed.header("ETag"))
                #expect(tag != plain.header("ETag"))
                let again = try await client.request("GET", "/app.js", headers: [("Accept-Encoding", "gzip"), ("If-None-Match", tag)])
                #expect(again.status == 304)

                let refused = try await client.request("GET", "/app.js", headers: [("Accept-Encoding", "gzip;q=0, identity")])
                #expect(refused.header("Content-Encoding") == nil && refused.text == Self.script)
                // Too small to pay, or not text: as is.
                #expect(try await client.request("GET", "/tiny.js", headers: [("Accept-Encoding", "gzip")]).header("Content-Encoding") == nil)
                let image = try await client.request("GET", "/image.png", headers: [("Accept-Encoding", "gzip")])
                #expect(image.header("Content-Encoding") == nil && image.header("Vary") == nil && image.body.count == 4004)
                #expect(plain.header("Cache-Control") == "no-cache")
            }
        }
    }

    @Test func aFingerprintedFileIsCachedForAYear() async throws {
        try await withSite { root in
            try await withServer(Fingerprinted(files: StaticFiles(root: root))) { server in
                let client = try RawHTTPClient(port: server.port)
                #expect(try await client.request("GET", "/current/x").header("Cache-Control") == "public, max-age=31536000, immutable")
                #expect(try await client.request("GET", "/stale/x").header("Cache-Control") == "no-cache")
            }
        }
    }

    /// `/current/…` is `app.js` under its current fingerprint, `/stale/…` under an old one.
    private struct Fingerprinted: HTTPResponder {
        let files: StaticFiles

        func respond(to request: Request) async throws -> Response {
            files.respond(to: request, path: ["app.js"], immutable: request.path.hasPrefix("/current/"))
        }
    }

    /// `bytes` decompressed by gzip(1), the reference implementation.
    private func gunzip(_ bytes: [UInt8]) throws -> [UInt8] {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("bindery-gunzip-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let input = directory.appendingPathComponent("in.gz"), output = directory.appendingPathComponent("out")
        try Data(bytes).write(to: input)
        let status = try ChildProcess.run("/bin/gzip", ["-dc"], input: input.path, output: output.path)
        #expect(status == 0, "gzip -dc exited \(status)")
        return [UInt8](try Data(contentsOf: output))
    }
}
