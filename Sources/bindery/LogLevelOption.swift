import ArgumentParser
import Logging

/// A swift-log level given on the command line.
struct LogLevelOption: ExpressibleByArgument, CustomStringConvertible {
    /// The level.
    let level: Logger.Level

    init(_ level: Logger.Level) {
        self.level = level
    }

    init?(argument: String) {
        guard let level = Logger.Level(rawValue: argument.lowercased()) else { return nil }
        self.level = level
    }

    var description: String { level.rawValue }

    static var allValueStrings: [String] { Logger.Level.allCases.map(\.rawValue) }
}
