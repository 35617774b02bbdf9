import Foundation

/// Debian's nginx in front of some Bindery nodes, for one test: configured from the multi-node
/// tests' template (`Tests/multinode/nginx.conf.template`, the settings the compose file uses),
/// run from a temporary prefix on a free loopback port (never the system service), stopped by
/// ``stop()`` (which keeps its logs, in `/tmp/bindery-nginx-*`, when `BINDERY_KEEP_NGINX` is set).
public final class NginxProxy: Sendable {
    /// The port nginx listens on, on 127.0.0.1.
    public let port: Int
    private let process: ChildProcess
    private let prefix: String

    /// Starts nginx over the nodes listening on `ports`: each session placed on one of them by the
    /// template's consistent hash of its token, the next one taking over while it is down.
    public init(upstreams ports: [Int]) throws {
        let template = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("multinode/nginx.conf.template")
        let text = try String(contentsOf: template, encoding: .utf8)
        prefix = FileManager.default.temporaryDirectory.appendingPathComponent("bindery-nginx-\(UUID().uuidString)").path
        for directory in ["logs", "tmp"] {
            try FileManager.default.createDirectory(atPath: "\(prefix)/\(directory)", withIntermediateDirectories: true)
        }
        port = try LoopbackPort.free()
        let servers = ports.map { "        server 127.0.0.1:\($0) max_fails=1 fail_timeout=2s;" }.joined(separator: "\n")
        let configuration = text.replacingOccurrences(of: "{{listen}}", with: "127.0.0.1:\(port)")
            .replacingOccurrences(of: "{{servers}}", with: servers)
        try configuration.write(toFile: "\(prefix)/nginx.conf", atomically: true, encoding: .utf8)
        process = try ChildProcess.start(
            "/usr/sbin/nginx", ["-p", prefix, "-c", "\(prefix)/nginx.conf", "-e", "\(prefix)/logs/error.log"],
            output: "\(prefix)/logs/stdout.log"
        )
        for _ in 0..<200 where !LoopbackPort.accepts(port) {
            guard process.isRunning else { break }
            usleep(25_000)
        }
        guard LoopbackPort.accepts(port) else {
            let log = (try? String(contentsOfFile: "\(prefix)/logs/error.log", encoding: .utf8)) ?? ""
            process.terminate()
            throw LoopbackPortError(description: "nginx did not listen on \(port): \(log.suffix(600))")
        }
    }

    /// Stops nginx and removes its prefix.
    public func stop() {
        process.terminate()
        process.waitUntilExit()
        if ProcessInfo.processInfo.environment["BINDERY_KEEP_NGINX"] == nil { try? FileManager.default.removeItem(atPath: prefix) }
    }
}
