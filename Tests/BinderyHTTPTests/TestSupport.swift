import BinderyHTTP
import Logging
import Synchronization

/// Log lines captured by `CapturingLogHandler`.
final class LogRecorder: Sendable {
    struct Line: Sendable {
        var level: Logger.Level
        var message: String
        var metadata: [String: String]
    }

    private let lines = Mutex<[Line]>([])

    var all: [Line] { lines.withLock { $0 } }

    func append(_ line: Line) {
        lines.withLock { $0.append(line) }
    }

    /// A logger writing into this recorder (no global bootstrap).
    func logger() -> Logger {
        Logger(label: "test") { _ in CapturingLogHandler(recorder: self) }
    }
}

/// A LogHandler that records into a `LogRecorder`.
struct CapturingLogHandler: LogHandler {
    let recorder: LogRecorder
    var metadata: Logger.Metadata = [:]
    var logLevel: Logger.Level = .trace

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        var flat: [String: String] = [:]
        for (key, value) in metadata.merging(event.metadata ?? [:], uniquingKeysWith: { $1 }) {
            flat[key] = "\(value)"
        }
        recorder.append(.init(level: event.level, message: "\(event.message)", metadata: flat))
    }
}

/// Starts a server on 127.0.0.1, port 0, runs `body` with it, and always shuts it down.
func withServer<T>(
    _ responder: some HTTPResponder,
    configuration: ServerConfiguration = ServerConfiguration(port: 0),
    logs: LogRecorder = LogRecorder(),
    _ body: (HTTPServer) async throws -> T
) async throws -> T {
    var configuration = configuration
    configuration.host = "127.0.0.1"
    configuration.port = 0
    let server = HTTPServer(configuration: configuration, responder: responder, logger: logs.logger())
    try server.start()
    do {
        let result = try await body(server)
        await server.shutdown()
        return result
    } catch {
        await server.shutdown()
        throw error
    }
}

/// Polls `condition` until it holds or `timeout` passes (for effects that happen on server threads).
func eventually(timeout: Duration = .seconds(5), _ condition: () -> Bool) async -> Bool {
    let deadline = ContinuousClock.now.advanced(by: timeout)
    while ContinuousClock.now < deadline {
        if condition() { return true }
        try? await Task.sleep(for: .milliseconds(10))
    }
    return condition()
}
