import ArgumentParser
import BinderyBinding
import Foundation

/// `bindery openapi`: prints the OpenAPI 3.1 document that `bindery serve` with the same options
/// serves at `/openapi.json`.
struct OpenAPICommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "openapi",
        abstract: "Print the OpenAPI 3.1 document of the server these options describe, without serving."
    )

    @OptionGroup var options: ServeOptions

    func run() throws {
        let document = BinderyApplication.openAPIDocument(configuration: try options.configuration())
        FileHandle.standardOutput.write(Data(document))
    }
}
