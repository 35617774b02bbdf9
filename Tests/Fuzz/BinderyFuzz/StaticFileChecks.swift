import BinderyHTTP
import Foundation

/// Static files: no request path, however encoded, reads a file outside the root, and every
/// file inside it is served from the cache that was warmed with all of them.
enum StaticFileChecks {
    private static let secret = Array("outside the root".utf8)

    /// A root with a few files, a subfolder, a symbolic link that leads out of it, and a file
    /// next to it that must never be served; all its files already cached.
    static let files: StaticFiles = {
        let base = FileManager.default.temporaryDirectory.appendingPathComponent("bindery-fuzz-\(getpid())").path
        let root = base + "/public"
        try? FileManager.default.createDirectory(atPath: root + "/sub", withIntermediateDirectories: true)
        let inside = ["index.html", "app.js", "sub/index.html", "sub/a b.txt", "sub/é.css", ".hidden"]
        for name in inside {
            _ = FileManager.default.createFile(atPath: root + "/" + name, contents: Data(name.utf8))
        }
        _ = FileManager.default.createFile(atPath: base + "/secret.txt", contents: Data(secret))
        try? FileManager.default.createSymbolicLink(atPath: root + "/leak", withDestinationPath: "../secret.txt")
        try? FileManager.default.createSymbolicLink(atPath: root + "/up", withDestinationPath: "..")
        let files = StaticFiles(root: root)
        for name in inside + [""] {
            let raw = "/" + (name.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed) ?? name)
            let request = Request(method: .get, path: "/" + name, rawPath: raw)
            blockingWait { _ = try? await files.respond(to: request) }
        }
        return files
    }()

    /// Checks a GET of one raw path.
    static func check(_ text: String) {
        let raw = text.hasPrefix("/") ? text : "/" + text
        guard let path = PercentDecoding.decode(raw), !path.contains("\0") else { return }
        let response = files.respondImmediately(to: Request(method: .get, path: path, rawPath: raw))
        // Nil would mean a regular file was found that the warm-up did not cache: outside the root.
        guard let response else {
            expect(false, "\(excerpt(raw)) reaches a file that is not one of the root's")
            return
        }
        if case .bytes(let bytes) = response.body {
            expect(bytes != secret, "\(excerpt(raw)) serves the file outside the root")
        }
    }

    /// Runs `work` to its end from synchronous code (the fuzzer's thread is not a task).
    private static func blockingWait(_ work: @escaping @Sendable () async -> Void) {
        let done = DispatchSemaphore(value: 0)
        Task {
            await work()
            done.signal()
        }
        done.wait()
    }
}
