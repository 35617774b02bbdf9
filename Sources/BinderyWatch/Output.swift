import BinderyClient
import Foundation

/// Standard output and error, unbuffered: each line is out as soon as it is printed.
enum Output {
    /// Writes `text` and a line feed to standard output.
    static func line(_ text: String) {
        FileHandle.standardOutput.write(Data((text + "\n").utf8))
    }

    /// Writes `text` and a line feed to standard error.
    static func error(_ text: String) {
        FileHandle.standardError.write(Data((text + "\n").utf8))
    }

    /// Compact JSON with sorted keys.
    static func json(_ value: JSONValue) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        guard let data = try? encoder.encode(value) else { return "null" }
        return String(decoding: data, as: UTF8.self)
    }
}

/// SIGINT (Ctrl-C) ends the watch with status 0: following until interrupted is its normal end.
enum Interruption {
    nonisolated(unsafe) private static var source: (any DispatchSourceSignal)?

    static func exitOnSIGINT() {
        signal(SIGINT, SIG_IGN)
        let source = DispatchSource.makeSignalSource(signal: SIGINT, queue: .global())
        source.setEventHandler { Foundation.exit(0) }
        source.resume()
        Self.source = source
    }
}
