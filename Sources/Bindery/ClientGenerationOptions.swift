import ArgumentParser
import BinderyBinding
import BinderyRuntime
import Foundation

/// The options of `generate-client`: the language (`swift`) and the directory the files go to.
///
/// `BinderyApp.main()` has the subcommand; an executable with its own command line adds one that
/// takes these options and calls ``generate(app:)``.
public struct ClientGenerationOptions: ParsableArguments {
    /// The languages a client can be generated in.
    public enum Language: String, ExpressibleByArgument, CaseIterable, Sendable {
        /// Swift, on top of `BinderyClient`.
        case swift
    }

    /// The language of the generated code.
    @Argument(help: "The language of the generated code: swift (types on top of BinderyClient).")
    public var language: Language

    /// The directory the files are written to (created when missing; files of the same names replaced).
    @Option(help: "The directory the generated files are written to (created when missing).")
    public var output: String

    /// Options parsed from the command line.
    public init() {}

    /// Writes one file per screen and per view model type reachable through child routes of the
    /// app `build` makes, into ``output``, and prints each file's path.
    public func generate(app build: @Sendable (AppContext) throws -> BinderyApp) throws {
        let directory = URL(fileURLWithPath: output, isDirectory: true)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        for file in try SwiftClientGenerator.files(app: build) {
            let url = directory.appendingPathComponent(file.fileName)
            try Data(file.contents.utf8).write(to: url, options: .atomic)
            print(url.path)
        }
    }
}
