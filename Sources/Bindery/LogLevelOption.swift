import ArgumentParser
import Logging

/// A swift-log level given on the command line (`--log-level debug`).
public struct LogLevelOption: ExpressibleByArgument, CustomStringConvertible, Sendable {
    /// The level.
    public let level: Logger.Level

    /// The option for `level`.
    public init(_ level: Logger.Level) {
        self.level = level
    }

    /// Parses a level's name, in any letter case.
    public init?(argument: String) {
        guard let level = Logger.Level(rawValue: argument.lowercased()) else { return nil }
        self.level = level
    }

    /// The level's name.
    public var description: String { level.rawValue }

    /// Every level's name, for `--help`.
    public static var allValueStrings: [String] { Logger.Level.allCases.map(\.rawValue) }
}
